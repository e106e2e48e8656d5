// @roundtrip/mcp/internal: helpers Roundtrip's own packages share (the CLI's messages use them). Not a
// public API: anything here may change in any release without notice. It loads nothing else, so a
// command that only needs a word matched does not load the server, the engine or the SDK.

export { closestChoice, didYouMean } from './did-you-mean.ts';
