// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

/**
 * JSON text of a value with object keys sorted, so two JSON-equal values give
 * the same string whatever their key order.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, member) => {
    if (typeof member !== "object" || member === null || Array.isArray(member)) return member;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(member).sort()) sorted[key] = member[key];
    return sorted;
  }) ?? "undefined";
}
