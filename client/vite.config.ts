import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const API_TARGET = process.env.FANKURVE_API ?? 'http://localhost:3000';

export default defineConfig({
  resolve: {
    // RxDB's broadcast-channel says goodbye on `unload`, which keeps pages out of the back/forward
    // cache: the same API on `pagehide` (docs/architecture.md, Client data layer).
    alias: [{ find: /^unload$/, replacement: fileURLToPath(new URL('./src/data/pageUnload.ts', import.meta.url)) }],
  },
  plugins: [
    react(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/pwa',
      filename: 'sw.ts',
      registerType: 'autoUpdate',
      // Registered by src/pwa/register.ts (after the first paint), not by an injected script.
      injectRegister: null,
      injectManifest: {
        // The whole build and the icons. No web manifest: the server builds it from the club's
        // configuration (GET /api/manifest.webmanifest, linked in index.html), so an installed app
        // takes the club's name, colour and logo; precached, it would keep the old ones.
        globPatterns: ['**/*.{js,css,html,png,svg,ico}'],
      },
      manifest: false,
      devOptions: { enabled: false },
    }),
  ],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: false },
      '/uploads': { target: API_TARGET, changeOrigin: false },
    },
  },
  preview: {
    port: 4173,
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: false },
      '/uploads': { target: API_TARGET, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // A lazy chunk's import links only its style sheets; the browser finds the modules it imports
    // in the chunk itself (the service worker has them all). A preload link for each of them, some
    // thirty for a screen, cost one long task on a phone (docs/architecture.md, Loading).
    modulePreload: {
      resolveDependencies: (_file, deps, { hostType }) => (hostType === 'js' ? deps.filter((dep) => dep.endsWith('.css')) : deps),
    },
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Every module the entry imports statically in one chunk: the first load asks for two
          // scripts (this and the bundler's runtime) instead of a dozen small ones.
          groups: [{ name: 'app', tags: ['$initial'] }],
        },
      },
    },
  },
});
