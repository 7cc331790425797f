// @ts-check
// A script fetched on its first use rather than with the page (a first visit does without it), and fetched
// again at the next use if that failed (offline before the service worker kept it).

/**
 * @template T
 * @param {() => Promise<T>} load  the dynamic import of the script (the page's own, so the build hashes its name)
 * @returns {() => Promise<T>}
 */
export function onFirstUse(load) {
  /** @type {Promise<T> | null} */
  let loading = null;
  return () => {
    if (!loading) {
      loading = load();
      loading.catch(() => {
        loading = null;
      });
    }
    return loading;
  };
}
