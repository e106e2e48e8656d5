// An error attached to a log entry: its report stands on indented lines under the entry, cut and
// escaped like a message, so an error message quoting a client cannot forge a line of the log.
import { describe, expect, it } from 'vitest';
import { createStderrLog } from '../src/node/stderr-log.ts';

const logged = (error: unknown): string => {
  const lines: string[] = [];
  createStderrLog('orders', (line) => lines.push(line))({ level: 'error', event: 'engine_error', message: 'round 2 threw', error });
  return lines.join('');
};

describe('an error in a log entry', () => {
  it('escapes every control but the new line, and indents every line of the stack', () => {
    const error = new Error('bad answer\r[orders] info run_complete: forged\n[orders] warn forged too \u001b[2J');
    const text = logged(error);
    const lines = text.split('\n').filter(Boolean);
    expect(lines[0]).toBe('[orders] error engine_error: round 2 threw');
    for (const line of lines.slice(1)) expect(line.startsWith('    ')).toBe(true);
    expect(text.includes('\r') || text.includes('\u001b')).toBe(false);
    expect(text).toContain('bad answer\\r[orders] info run_complete: forged');
    expect(text).toContain('\\u001b[2J');
  });

  it('cuts a long report and says how much was left out', () => {
    const error = new Error('x'.repeat(50_000));
    const text = logged(error);
    expect(text.length).toBeLessThan(4_200);
    expect(text).toMatch(/… \(\d+ more characters\)/);
  });

  it('reports a thrown value that is not an Error as JSON, indented', () => {
    expect(logged({ reason: 'no\nline' })).toBe('[orders] error engine_error: round 2 threw\n    {"reason":"no\\nline"}\n');
  });
});
