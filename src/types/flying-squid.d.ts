// Minimal ambient declaration: flying-squid ships no types (CommonJS; use the default import). Only src/server/** imports it.
declare module 'flying-squid' {
  interface FlyingSquid {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped third-party server object, narrowed in src/server/squid.ts
    createMCServer(options: Record<string, unknown>): any
    UserError: new (message: string) => Error
  }
  const squid: FlyingSquid
  export default squid
}
