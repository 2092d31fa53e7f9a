export * from './primitives.js';
export * from './model.js';
export * from './methods.js';
export * from './validate.js';
export { jsonSchemas } from './json-schema.js';
export * from './version.js';
