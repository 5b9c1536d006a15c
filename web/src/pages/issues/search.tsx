export default function S() {
  return null;
}
