#!/usr/bin/env node
/**
 * Generates the Prisma client of every service that owns a schema (apps/<service>/prisma).
 * Prisma's CLI otherwise downloads its native schema engine first, which offline machines
 * cannot; generation never runs that engine, so any existing file satisfies the CLI
 * (ENVIRONMENT.md). Where PRISMA_SCHEMA_ENGINE_BINARY is already set, it is kept.
 */
const { execFileSync } = require('node:child_process');
const { existsSync, readdirSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..', '..');
const prismaCli = join(root, 'node_modules', 'prisma', 'build', 'index.js');
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY) env.PRISMA_SCHEMA_ENGINE_BINARY = process.execPath;

const schemas = readdirSync(join(root, 'apps'))
  .map((app) => join(root, 'apps', app, 'prisma', 'schema.prisma'))
  .filter((file) => existsSync(file));
for (const schema of schemas) {
  execFileSync(process.execPath, [prismaCli, 'generate', '--schema', schema], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  process.stdout.write(`prisma client generated for ${schema.slice(root.length + 1)}\n`);
}
