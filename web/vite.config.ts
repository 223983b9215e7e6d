import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
// By path, not by package name: the config is bundled before it runs, and the catalogue is TypeScript.
import { offline as text } from '../domain/src/messages/hu/offline.ts';
import { paths } from '../domain/src/paths.ts';
import { textsWithTheirModules } from './vite-texts.ts';

/** The app's palette (src/styles.css: --brand and --bg). */
const THEME_COLOR = '#c2410c';
const BACKGROUND_COLOR = '#f7f5f2';

/**
 * The largest file the service worker precaches. Well above any chunk we ship (the biggest, the
 * map, is ~150 KiB), so nothing is left out; scripts/check-precache.ts fails the build if a chunk
 * still is (docs/decisions/0019-installable-app-and-outbox.md).
 */
const MAX_PRECACHED_BYTES = 8 * 1024 * 1024;

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    react(),
    // Each text with the modules that read it (the build-time render keeps the whole catalogue).
    !isSsrBuild && textsWithTheirModules(),
    // The prerender step's server build (scripts/prerender.ts) makes no service worker.
    !isSsrBuild &&
      VitePWA({
        strategies: 'injectManifest',
        // src/sw/sw.ts only imports src/sw/index.ts: the built file is named after it, /sw.js.
        srcDir: 'src/sw',
        filename: 'sw.ts',
        // The registration is ours (src/offline/register-sw.ts): the update waits for the person's tap.
        registerType: 'prompt',
        injectRegister: false,
        manifestFilename: 'manifest.webmanifest',
        includeAssets: ['favicon.svg', 'favicon.ico'],
        manifest: {
          id: '/',
          name: text.manifestName,
          short_name: text.manifestShortName,
          description: text.manifestDescription,
          lang: 'hu',
          dir: 'ltr',
          start_url: '/',
          scope: '/',
          display: 'standalone',
          orientation: 'portrait',
          theme_color: THEME_COLOR,
          background_color: BACKGROUND_COLOR,
          icons: [
            { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
            { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
            { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          ],
          shortcuts: [
            {
              name: text.shortcutWaitingParcels,
              short_name: text.shortcutWaitingParcelsShort,
              url: paths.waitingParcels,
              icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }],
            },
            {
              name: text.shortcutRunnerMap,
              short_name: text.shortcutRunnerMapShort,
              url: paths.runnerMap,
              icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }],
            },
          ],
        },
        injectManifest: {
          // Every entry and lazy chunk, the stylesheet, the shell and the icons; never source maps.
          globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest}'],
          globIgnores: ['**/*.map', 'sw.js'],
          maximumFileSizeToCacheInBytes: MAX_PRECACHED_BYTES,
          // A classic script (registered as one): runs in every browser that has service workers.
          rollupFormat: 'iife',
        },
        devOptions: { enabled: false },
      }),
  ],
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
  // Maps are written for debugging but not referenced, so browsers never download them.
  // The manifest tells the build-time pages which chunks to name (scripts/prerender.ts), then goes.
  build: { outDir: 'dist', sourcemap: 'hidden', manifest: true },
}));
