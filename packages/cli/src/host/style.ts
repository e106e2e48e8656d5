// How the terminal host marks text: bold questions, dim hints and server logs, red errors; plain
// when the output is not a terminal or NO_COLOR is set.

export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  cyan(text: string): string;
}

const sgr = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

export const terminalStyle: Style = { bold: sgr(1, 22), dim: sgr(2, 22), red: sgr(31, 39), green: sgr(32, 39), cyan: sgr(36, 39) };

const same = (text: string) => text;
export const plainStyle: Style = { bold: same, dim: same, red: same, green: same, cyan: same };
