// The settings of a reference server, from the environment the bench gives it.

/** The value of a variable the bench must have set. */
export function setting(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}
