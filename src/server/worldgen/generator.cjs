/**
 * CommonJS entry for flying-squid, which loads a custom world generator with `require(<absolute path>)` and calls
 * the export as `module(options)`. The server child runs under `node --import tsx`, so requiring the TypeScript
 * module works; this shim only unwraps its default export (`createGenerator` in generator.ts).
 */
'use strict'
const { createGenerator } = require('./generator.ts')
module.exports = function practiceWorldGenerator (options) { return createGenerator(options) }
