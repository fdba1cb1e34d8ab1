/**
 * Builds the web client (src/web/main.tsx → dist/web/) and, once its entry exists, the Outlook
 * add-in (src/addin/taskpane.tsx → dist/addin/). `index.html` sits at the output root; every
 * asset goes under `webjars/` because the server serves the pages from /webjars/ (SPEC §2).
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EsbuildPlugin } from 'esbuild-loader';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import type { Configuration } from 'webpack';

const root = dirname(fileURLToPath(import.meta.url));
const fromRoot = (...parts: string[]) => resolve(root, ...parts);

/** Same aliases as tsconfig.json "paths". */
const alias = {
  '@shared': fromRoot('shared'),
  '@web': fromRoot('web'),
  '@addin': fromRoot('addin'),
  '@locales': fromRoot('locales'),
};

interface BundleOptions {
  name: string;
  entry: string;
  template: string;
  outDir: string;
  /** URL prefix the server serves the assets under. */
  publicPath: string;
  /** HTML file path relative to outDir. */
  htmlFile: string;
  production: boolean;
}

function bundle(options: BundleOptions): Configuration {
  const { production } = options;
  return {
    name: options.name,
    mode: production ? 'production' : 'development',
    target: 'web',
    entry: { main: options.entry },
    devtool: production ? 'source-map' : 'eval-cheap-module-source-map',
    output: {
      path: options.outDir,
      publicPath: options.publicPath,
      filename: production ? '[name].[contenthash:10].js' : '[name].js',
      chunkFilename: production ? '[name].[contenthash:10].chunk.js' : '[name].chunk.js',
      assetModuleFilename: '[name].[contenthash:10][ext]',
      clean: true,
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
      new HtmlWebpackPlugin({
        template: options.template,
        // publicPath prefixes asset URLs; the HTML itself must sit at the output root.
        filename: options.htmlFile,
        inject: 'body',
        scriptLoading: 'defer',
      }),
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

export default function config(_env: unknown, argv: { mode?: string } = {}): Configuration[] {
  const production = (argv.mode ?? process.env.NODE_ENV) !== 'development';
  const configs: Configuration[] = [
    bundle({
      name: 'web',
      entry: fromRoot('src/web/main.tsx'),
      template: fromRoot('src/web/index.html'),
      // Assets in dist/web/webjars/ (served at /webjars/), the page one level up at dist/web/index.html.
      outDir: fromRoot('dist/web/webjars'),
      publicPath: '/webjars/',
      htmlFile: '../index.html',
      production,
    }),
  ];
  // The add-in is a second entry built the same way once it exists (DESIGN §6).
  const addinEntry = fromRoot('src/addin/taskpane.tsx');
  if (existsSync(addinEntry)) {
    configs.push(
      bundle({
        name: 'addin',
        entry: addinEntry,
        template: fromRoot('src/addin/taskpane.html'),
        outDir: fromRoot('dist/addin'),
        publicPath: '/addin/',
        htmlFile: 'taskpane.html',
        production,
      }),
    );
  }
  return configs;
}
