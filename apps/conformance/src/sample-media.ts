// The bytes the fixtures show: made for these tests, base64 as MCP carries them.

/** A 1×1 PNG, one blue pixel. */
export const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGOQm/AfAAJ9Aa5x8yHNAAAAAElFTkSuQmCC';

/** A WAV file: 8 samples of silence, 16-bit mono at 8 kHz. */
export const SILENCE_WAV = 'UklGRjQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YRAAAAAAAAAAAAAAAAAAAAAAAAAA';
