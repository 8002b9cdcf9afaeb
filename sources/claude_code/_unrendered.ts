// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

/**
 * Called for each thing in a Claude Code transcript the mapping does not
 * render: a record `type` (`subtype` `""`), a `system` record's subtype, an
 * `attachment`'s type, a `progress` record's `data.type`, a content block
 * (`type` `"block"`, `subtype` the block's type), an `isMeta` record, a
 * `<synthetic>` reply, a queued message never read (`"queue-operation"`,
 * `"withdrawn"` or `"never read"`).
 */
export type OnUnrendered = (line: number, type: string, subtype: string) => void;
