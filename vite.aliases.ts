import path from "node:path";
import type { Alias } from "vite";

/** The `#app/*`-style path imports of package.json and tsconfig, for Vite and vitest. */
export const pathAliases: Alias[] = ["app", "server", "db", "migrations", "tests"].map((dir) => ({
  find: new RegExp(`^#${dir}/`),
  replacement: `${path.resolve(import.meta.dirname, dir)}/`,
}));
