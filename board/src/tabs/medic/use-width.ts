import { useLayoutEffect, useRef, useState } from 'preact/hooks';

/**
 * The rendered width of an element in CSS pixels, following resizes: charts are drawn at their
 * real size (text stays readable on a phone instead of being scaled down with a viewBox).
 */
export function useWidth<T extends HTMLElement>(fallback = 600) {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setWidth(Math.max(200, Math.floor(el.clientWidth)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}
