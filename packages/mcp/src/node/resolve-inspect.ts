// ROUNDTRIP_INSPECT and ROUNDTRIP_INSPECT_ANSWERS: where a server reports its rounds, and whether with answer values.
import { RoundtripConfigError } from '../config-error.ts';

export interface InspectSettings {
  /** The inspector page's address, or undefined when nothing is reported. */
  readonly address: string | undefined;
  /** ROUNDTRIP_INSPECT=stately: actor events to Stately's hosted inspector. */
  readonly stately: boolean;
  readonly answers: 'masked' | 'shown';
}

export function resolveInspect(env: Readonly<Record<string, string | undefined>>): InspectSettings {
  const raw = env.ROUNDTRIP_INSPECT?.trim();
  const answersRaw = env.ROUNDTRIP_INSPECT_ANSWERS?.trim();
  if (answersRaw && answersRaw !== 'masked' && answersRaw !== 'shown') {
    throw new RoundtripConfigError(
      'ROUNDTRIP_INSPECT_ANSWERS',
      `ROUNDTRIP_INSPECT_ANSWERS is '${answersRaw}'; set it to masked (the default: field names only) or shown.`,
    );
  }
  const answers = answersRaw === 'shown' ? 'shown' : 'masked';
  if (!raw) return { address: undefined, stately: false, answers };
  if (raw === 'stately') return { address: undefined, stately: true, answers };
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new RoundtripConfigError(
      'ROUNDTRIP_INSPECT',
      `ROUNDTRIP_INSPECT is '${raw}'; set it to the address of an inspector page, such as http://127.0.0.1:4343, or to stately.`,
    );
  }
  return { address: url.origin, stately: false, answers };
}
