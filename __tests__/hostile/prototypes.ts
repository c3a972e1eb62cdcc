/** A snapshot of the built-in prototypes, to prove no receipt reached them. */
export function prototypeSnapshot(): Record<string, string[]> {
  const protos: Record<string, object> = {
    Object: Object.prototype,
    Array: Array.prototype,
    Function: Function.prototype,
    String: String.prototype,
    Number: Number.prototype
  }
  const out: Record<string, string[]> = {}
  for (const [name, proto] of Object.entries(protos))
    out[name] = Reflect.ownKeys(proto)
      .map(String)
      .sort((a, b) => a.localeCompare(b))
  return out
}
