/** Nothing global to clean: each suite drops its own database and stops its own processes. */
export default function globalTeardown(): void {}
