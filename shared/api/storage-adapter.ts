/**
 * Adapter over the browser's localStorage. The only place in shared/api that touches a
 * window global; anywhere without localStorage (Node tests, locked-down web views) it
 * falls back to memory so callers never have to care.
 */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export function createMemoryStorage(): KeyValueStorage {
  const values = new Map<string, string>();
  return {
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => void values.set(key, value),
    removeItem: (key) => void values.delete(key),
  };
}

/** localStorage when usable, else memory. Access can throw (privacy modes), so every call is guarded. */
export function createBrowserStorageAdapter(): KeyValueStorage {
  const memory = createMemoryStorage();
  const local = (globalThis as { localStorage?: Storage }).localStorage;
  if (!local) return memory;
  return {
    getItem: (key) => {
      try {
        return local.getItem(key);
      } catch {
        return memory.getItem(key);
      }
    },
    setItem: (key, value) => {
      try {
        local.setItem(key, value);
      } catch {
        memory.setItem(key, value);
      }
    },
    removeItem: (key) => {
      try {
        local.removeItem(key);
      } catch {
        memory.removeItem(key);
      }
    },
  };
}
