import { getMetadataStorage } from 'class-validator';

type Storage = ReturnType<typeof getMetadataStorage>;
type Lookup = Storage['getTargetValidationMetadatas'];
type Rules = ReturnType<Lookup>;

const cached = new WeakSet<Storage>();

/** class-validator finds a class's rules by testing every class it knows on each validation: kept per class once found, dropped when rules are added (docs/architecture/runtime.md#validation-and-errors). */
export function cacheValidationRules(storage: Storage = getMetadataStorage()): void {
  if (cached.has(storage)) return;
  cached.add(storage);
  const lookup: Lookup = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  let rules = new Map<unknown, Map<string, Rules>>();
  let grouped = new WeakMap<Rules, ReturnType<Storage['groupByPropertyName']>>();
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (groups?.length) return lookup(target, schema, always, strictGroups, groups);
    const options = `${schema}|${always}|${strictGroups}`;
    let forTarget = rules.get(target);
    if (!forTarget) rules.set(target, (forTarget = new Map()));
    let found = forTarget.get(options);
    if (!found) forTarget.set(options, (found = lookup(target, schema, always, strictGroups, groups)));
    return found;
  };
  storage.groupByPropertyName = (metadata) => {
    let found = grouped.get(metadata);
    if (!found) grouped.set(metadata, (found = group(metadata)));
    return found;
  };
  for (const method of ['addValidationMetadata', 'addConstraintMetadata', 'addValidationSchema'] as const) {
    const add = storage[method].bind(storage) as (value: never) => void;
    storage[method] = ((value: never) => {
      rules = new Map();
      grouped = new WeakMap();
      add(value);
    }) as never;
  }
}
