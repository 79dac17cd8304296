import { validateSync } from 'class-validator';
import { WebhookBody } from './webhooks.dto';

const problems = (body: Record<string, unknown>) =>
  validateSync(Object.assign(new WebhookBody(), { url: 'https://hooks.example/', ...body }), { stopAtFirstError: true }).map((e) => ({
    field: e.property,
    rules: Object.keys(e.constraints ?? {}),
  }));

describe('a webhook endpoint body', () => {
  it('takes a readable description and one or two event types', () => {
    expect(problems({ description: 'orders — Zürich', events: ['submission.terminal'] })).toEqual([]);
    expect(problems({})).toEqual([]);
  });

  it('refuses a description with control characters or direction overrides, and an empty event list', () => {
    expect(problems({ description: 'a\u0001b' })).toEqual([{ field: 'description', rules: ['noControlCharacters'] }]);
    expect(problems({ description: 'paid\u202e' })).toEqual([{ field: 'description', rules: ['noControlCharacters'] }]);
    expect(problems({ events: [] })).toEqual([{ field: 'events', rules: ['arrayMinSize'] }]);
  });
});
