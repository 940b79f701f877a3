import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [tailwindcss(), reactRouter()],
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  build: {
    assetsInlineLimit: 0,
    // The server build's entry is the whole server (Express app, services, pages): one module graph.
    ...(isSsrBuild ? { rollupOptions: { input: "./app/server/main.ts" } } : {}),
  },
}));
