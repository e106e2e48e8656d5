// What the terminal host says when a request fails: the words for the developer at the terminal, the exit
// code, and whether the server's log is worth showing. Both explainers (the SDK's errors, the HTTP exchange's)
// answer with one.
export interface Failure {
  readonly message: string;
  readonly code: number;
  /** Whether the server's log helps (it stopped, or could not start); never for a server at a URL, whose log is not here. */
  readonly showLog: boolean;
}
