/** `n noun`, with an `s` unless `n` is 1: "1 receipt", "3 receipts". */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}
