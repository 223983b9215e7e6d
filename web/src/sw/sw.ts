// The service worker's entry: the build names its output after this file (/sw.js at the root scope).
import './index.ts';
