/** Tests that set an environment variable for a while. */

/** Runs `run` with `process.env[name]` set to `value`, then puts back what was there (or nothing). */
export async function withEnv<T>(
  name: string,
  value: string,
  run: () => T | Promise<T>
): Promise<T> {
  const saved = process.env[name]
  process.env[name] = value
  try {
    return await run()
  } finally {
    if (saved === undefined) delete process.env[name]
    else process.env[name] = saved
  }
}
