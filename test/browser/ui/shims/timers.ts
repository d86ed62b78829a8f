// node:timers in the page (src/llm/client.ts and the semantic service import Node's timers, which
// also run headless): the browser's own.
export const setTimeout = window.setTimeout.bind(window);
export const clearTimeout = window.clearTimeout.bind(window);
export const setInterval = window.setInterval.bind(window);
export const clearInterval = window.clearInterval.bind(window);
