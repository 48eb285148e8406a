/** "1 photo", "2 photos", "0 photos": counts a person reads. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
