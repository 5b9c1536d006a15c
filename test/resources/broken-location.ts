/**
 * Loaded before anything reads the configuration: the locations of this test file include one
 * whose region no AWS client accepts, so provisioning there fails for real (no mock).
 */
process.env.LOCATIONS = JSON.stringify([
  { id: 'fra', name: 'Frankfurt', region: 'eu-central-1' },
  { id: 'void', name: 'Nowhere', region: 'not_a_region' },
]);
