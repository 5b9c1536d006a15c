// Module hooks for conformance-node20.mjs: the suite's bundle, without its fs.globSync import.
export async function load(url, context, next) {
  const loaded = await next(url, context);
  if (!url.includes('@modelcontextprotocol/conformance/dist/') || !loaded.source) return loaded;
  const source = String(loaded.source);
  if (!source.includes('globSync as o,')) return loaded;
  const shim = "const o = () => { throw new Error('fs.globSync needs Node 22'); };\n";
  return { ...loaded, source: shim + source.replace(/^#!.*\n/, '').replace('globSync as o,', '') };
}
