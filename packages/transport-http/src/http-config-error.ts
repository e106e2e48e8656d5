// The HTTP transport's former name for a setting it cannot start with, kept so that code written against it
// still compiles and still catches: it is RoundtripConfigError itself (one class for every transport), so
// `instanceof HttpConfigError` holds for every setting error, stdio's and the ledger's included.
import { RoundtripConfigError } from '@roundtrip/mcp';

/** @deprecated Use {@link RoundtripConfigError}: the same class, under the name every transport shares. */
export const HttpConfigError = RoundtripConfigError;
/** @deprecated Use {@link RoundtripConfigError}: the same class, under the name every transport shares. */
export type HttpConfigError = RoundtripConfigError;
