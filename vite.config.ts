import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import { pathAliases } from "./vite.aliases";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig({
  resolve: { alias: pathAliases },
  build: { target: "es2022" },
  // Server-only native packages: the dev dependency scanner must not try their browser builds.
  optimizeDeps: { exclude: ["@node-rs/argon2"] },
  plugins: [
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
        v3_routeConfig: true,
      },
    }),
  ],
});
