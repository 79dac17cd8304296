/** `npm run migrate [-- <service> ...]`: tables, and with NATS_URL relay-tracker's JetStream streams; safe to run concurrently and repeatedly; see docs/operators/database-migrations.md. */
import { redactUrl } from '@swap/config';
import { ensureDatabase } from '@swap/persistence';
import { migrateService } from '@swap/service-kit';
import { DATABASE_SERVICES } from '../../platform-services/src';
import { migrateJetStream } from './jetstream';

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/swap_platform';
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !DATABASE_SERVICES.some((d) => d.name === name));
  if (unknown.length) {
    process.stderr.write(
      `Unknown or table-less service: ${unknown.join(', ')}. Services with migrations: ${DATABASE_SERVICES.map((d) => d.name).join(', ')}\n`,
    );
    process.exit(2);
  }
  if (await ensureDatabase(url)) process.stdout.write(`created database ${redactUrl(url)}\n`);
  for (const definition of DATABASE_SERVICES.filter((d) => wanted.length === 0 || wanted.includes(d.name))) {
    const result = await migrateService(url, definition);
    const { schema } = result;
    const applied = result.applied.length ? `applied ${result.applied.join(', ')}` : 'up to date';
    process.stdout.write(`${definition.name} (schema ${schema}): ${applied}; ${result.alreadyApplied} already applied\n`);
  }
  if (wanted.length === 0 || wanted.includes('relay-tracker')) {
    for (const line of await migrateJetStream(process.env)) process.stdout.write(`${line}\n`);
  }
}

main().catch((error: Error) => {
  process.stderr.write(`migrate failed: ${error.message}\n`);
  process.exit(1);
});
