/**
 * Builds the web client (src/web/main.tsx → dist/web/) and, once its entry exists, the Outlook
 * add-in (src/addin/taskpane.tsx → dist/addin/). `index.html` sits at the output root; every
 * asset goes under `webjars/` because the server serves the pages from /webjars/ (SPEC §2).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EsbuildPlugin } from 'esbuild-loader';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import webpack, { type Configuration } from 'webpack';
import { readManifestTemplate, rewriteManifestUrls } from './server/outlook/manifest';

const root = dirname(fileURLToPath(import.meta.url));
const fromRoot = (...parts: string[]) => resolve(root, ...parts);

/** Same aliases as tsconfig.json "paths". */
const alias = {
  '@shared': fromRoot('shared'),
  '@web': fromRoot('web'),
  '@addin': fromRoot('addin'),
  '@locales': fromRoot('locales'),
};

interface Page {
  /** Entry (chunk) name. */
  name: string;
  entry: string;
  template: string;
  /** HTML file path relative to outDir. */
  htmlFile: string;
}

interface BundleOptions {
  name: string;
  pages: Page[];
  outDir: string;
  /** URL prefix the server serves the assets under. */
  publicPath: string;
  production: boolean;
  extraPlugins?: webpack.WebpackPluginInstance[];
}

/**
 * Copies the add-in's icons and writes dist/addin/manifest.xml with its URLs rewritten from
 * KUVERT_PUBLIC_URL (Office-Addin-TaskPane convention); without it the development origin stays.
 */
class AddinStaticFilesPlugin {
  apply(compiler: webpack.Compiler): void {
    compiler.hooks.thisCompilation.tap('AddinStaticFiles', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'AddinStaticFiles', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        const assets = fromRoot('addin/assets');
        for (const file of readdirSync(assets).filter((f) => f.endsWith('.png'))) {
          compilation.emitAsset(`assets/${file}`, new webpack.sources.RawSource(readFileSync(resolve(assets, file))));
        }
        const publicUrl = process.env.KUVERT_PUBLIC_URL;
        const manifest = publicUrl ? rewriteManifestUrls(readManifestTemplate(), publicUrl) : readManifestTemplate();
        compilation.emitAsset('manifest.xml', new webpack.sources.RawSource(manifest));
      });
    });
  }
}

function bundle(options: BundleOptions): Configuration {
  const { production } = options;
  return {
    name: options.name,
    mode: production ? 'production' : 'development',
    target: 'web',
    entry: Object.fromEntries(options.pages.map((p) => [p.name, p.entry])),
    // No eval-based source maps: the Content-Security-Policy forbids eval in development too.
    devtool: production ? 'source-map' : 'cheap-module-source-map',
    output: {
      path: options.outDir,
      publicPath: options.publicPath,
      filename: production ? '[name].[contenthash:10].js' : '[name].js',
      chunkFilename: production ? '[name].[contenthash:10].chunk.js' : '[name].chunk.js',
      assetModuleFilename: '[name].[contenthash:10][ext]',
      // The download worker is built by its own config into the same folder (downloadWorker below).
      clean: { keep: /^download-sw\.js/ },
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.mjs', '.js', '.json'],
      alias,
      // @hpke/common falls back to `import("crypto")` on Node ≤ 18 only; browsers use globalThis.crypto.
      fallback: { crypto: false },
    },
    module: {
      rules: [
        {
          test: /\.[cm]?tsx?$/,
          exclude: /node_modules/,
          loader: 'esbuild-loader',
          options: { target: 'es2022', jsx: 'automatic', tsconfig: fromRoot('tsconfig.json') },
        },
        { test: /\.(png|svg|ico|woff2?)$/, type: 'asset/resource' },
      ],
    },
    plugins: [
      ...options.pages.map(
        (page) =>
          new HtmlWebpackPlugin({
            template: page.template,
            // publicPath prefixes asset URLs; the HTML itself must sit at the output root.
            filename: page.htmlFile,
            chunks: [page.name],
            inject: 'body',
            scriptLoading: 'defer',
          }),
      ),
      ...(options.extraPlugins ?? []),
    ],
    optimization: {
      // esbuild minifies in a fraction of terser's time (build budget: well under 2 min on 2 cores).
      minimizer: [new EsbuildPlugin({ target: 'es2022', legalComments: 'none' })],
      // Named chunks in development help debugging; content hashes in production help caching.
      chunkIds: production ? 'deterministic' : 'named',
      moduleIds: production ? 'deterministic' : 'named',
      splitChunks: { chunks: 'all' },
      runtimeChunk: 'single',
    },
    performance: { hints: false },
    stats: 'errors-warnings',
  };
}

/**
 * The download service worker (src/web/download-sw.ts) as one standalone file at a fixed URL,
 * /webjars/download-sw.js: a worker script cannot load the page's runtime chunk, and its URL
 * decides its default scope (/webjars/, registered at /webjars/download/).
 */
function downloadWorker(production: boolean): Configuration {
  return {
    name: 'download-sw',
    mode: production ? 'production' : 'development',
    target: 'webworker',
    entry: { 'download-sw': fromRoot('src/web/download-sw.ts') },
    devtool: false,
    output: { path: fromRoot('dist/web/webjars'), filename: '[name].js', clean: false },
    resolve: { extensions: ['.ts', '.js'], alias },
    module: {
      rules: [{ test: /\.ts$/, exclude: /node_modules/, loader: 'esbuild-loader', options: { target: 'es2022', tsconfig: fromRoot('tsconfig.json') } }],
    },
    optimization: { minimizer: [new EsbuildPlugin({ target: 'es2022', legalComments: 'none' })] },
    performance: { hints: false },
    stats: 'errors-warnings',
  };
}

export default function config(_env: unknown, argv: { mode?: string } = {}): Configuration[] {
  const production = (argv.mode ?? process.env.NODE_ENV) !== 'development';
  const configs: Configuration[] = [
    bundle({
      name: 'web',
      // Assets in dist/web/webjars/ (served at /webjars/), the page one level up at dist/web/index.html.
      pages: [{ name: 'main', entry: fromRoot('src/web/main.tsx'), template: fromRoot('src/web/index.html'), htmlFile: '../index.html' }],
      outDir: fromRoot('dist/web/webjars'),
      publicPath: '/webjars/',
      production,
    }),
    downloadWorker(production),
  ];
  // The add-in is a second entry built the same way once it exists (DESIGN §6).
  const addinEntry = fromRoot('src/addin/taskpane.tsx');
  if (existsSync(addinEntry)) {
    configs.push(
      bundle({
        name: 'addin',
        pages: [
          { name: 'taskpane', entry: addinEntry, template: fromRoot('src/addin/taskpane.html'), htmlFile: 'taskpane.html' },
          { name: 'commands', entry: fromRoot('src/addin/commands.ts'), template: fromRoot('src/addin/commands.html'), htmlFile: 'commands.html' },
          { name: 'dialog', entry: fromRoot('src/addin/dialog.ts'), template: fromRoot('src/addin/dialog.html'), htmlFile: 'dialog.html' },
        ],
        outDir: fromRoot('dist/addin'),
        publicPath: '/addin/',
        production,
        extraPlugins: [new AddinStaticFilesPlugin()],
      }),
    );
  }
  return configs;
}
