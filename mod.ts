// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

/**
 * Turns agent-session logs into text a model reads.
 *
 * @module
 */

export * from "./events/types.ts";
