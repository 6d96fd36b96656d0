import { useLayoutEffect, useRef, useState } from 'preact/hooks';

/**
 * The rendered width of an element in CSS pixels, at least `min`, following resizes (`fallback`
 * until the first measurement, which happens before the first paint): charts are drawn or fetched
 * at their real size (text stays readable on a phone instead of being scaled down with a viewBox).
 */
export function useWidth<T extends HTMLElement>(fallback: number, min = 0) {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setWidth(Math.max(min, Math.floor(el.clientWidth)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}
