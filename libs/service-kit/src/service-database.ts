import { join } from 'node:path';
import { schemaNameOf, type ServiceName } from '@swap/contracts';
import { applyMigrations, type MigrationResult } from '@swap/persistence';
import type { AnyServiceDefinition, DatabaseUse } from './service-definition';

/** `definitionDir`: the `__dirname` of the service's definition. */
export function ownDatabase(service: ServiceName, definitionDir: string, clientClass: DatabaseUse['clientClass']): DatabaseUse {
  return { schema: schemaNameOf(service), migrationsDir: join(definitionDir, '..', 'prisma', 'migrations'), clientClass };
}

export function migrateService(databaseUrl: string, definition: AnyServiceDefinition): Promise<MigrationResult> {
  const database = definition.uses.database;
  if (!database) throw new Error(`${definition.name} owns no tables`);
  return applyMigrations(databaseUrl, { schema: database.schema, directory: database.migrationsDir });
}
