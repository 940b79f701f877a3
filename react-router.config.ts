import type { Config } from "@react-router/dev/config";

export default {
  appDirectory: "app",
  ssr: true,
  // BUILD_DIR lets several builds (parallel test runs) live side by side; default build/.
  buildDirectory: process.env.BUILD_DIR ?? "build",
} satisfies Config;
