import type { Door } from './metrics.ts';

/** Request durations: a cached GET answers in well under a millisecond, a chart in up to 20 s. */
export const durationBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20];

interface LabelSet { door: Door; method: string; route: string; status: number; count: number; sum: number; buckets: number[] }

/** The shape a prom-client registry reads from a metric it was given (`registerMetric`). */
interface MetricValues {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  values: { labels: Record<string, string | number>; value: number; metricName?: string }[];
}

/**
 * Answered requests counted in plain numbers per label set (door, method, route, status): a
 * request costs one Map lookup and a few additions, no label hashing; a scrape turns the counts
 * into a counter (by status) and a histogram (by status class). The label sets are bounded by the
 * routes, methods and statuses the server has.
 */
export class RequestStats {
  private readonly sets = new Map<string, LabelSet>();

  record(door: Door, method: string, route: string, status: number, seconds: number): void {
    const key = `${door} ${method} ${route} ${status}`;
    let set = this.sets.get(key);
    if (!set) this.sets.set(key, (set = { door, method, route, status, count: 0, sum: 0, buckets: new Array(durationBuckets.length + 1).fill(0) }));
    set.count++;
    set.sum += seconds;
    let i = 0;
    while (i < durationBuckets.length && seconds > durationBuckets[i]) i++;
    set.buckets[i]++;
  }

  /** A counter of the requests by door, method, route and status, for `registry.registerMetric`. */
  counter(name: string, help: string) {
    const get = (): MetricValues => ({
      name, help, type: 'counter', aggregator: 'sum',
      values: [...this.sets.values()].map((s) => ({ labels: { door: s.door, method: s.method, route: s.route, status: s.status }, value: s.count })),
    });
    return { name, help, type: 'counter', aggregator: 'sum', get, reset: () => {} };
  }

  /** A histogram of their durations by door, method, route and status class (2xx …), for `registry.registerMetric`. */
  histogram(name: string, help: string) {
    const get = (): MetricValues => {
      const byClass = new Map<string, { labels: Record<string, string>; count: number; sum: number; buckets: number[] }>();
      for (const s of this.sets.values()) {
        const statusClass = `${Math.floor(s.status / 100)}xx`;
        const key = `${s.door} ${s.method} ${s.route} ${statusClass}`;
        let group = byClass.get(key);
        if (!group) byClass.set(key, (group = { labels: { door: s.door, method: s.method, route: s.route, status_class: statusClass }, count: 0, sum: 0, buckets: new Array(durationBuckets.length + 1).fill(0) }));
        group.count += s.count;
        group.sum += s.sum;
        s.buckets.forEach((n, i) => (group.buckets[i] += n));
      }
      const values: MetricValues['values'] = [];
      for (const g of byClass.values()) {
        let cumulative = 0;
        durationBuckets.forEach((le, i) => {
          cumulative += g.buckets[i];
          values.push({ labels: { le, ...g.labels }, value: cumulative, metricName: `${name}_bucket` });
        });
        values.push({ labels: { le: '+Inf', ...g.labels }, value: g.count, metricName: `${name}_bucket` });
        values.push({ labels: g.labels, value: g.sum, metricName: `${name}_sum` });
        values.push({ labels: g.labels, value: g.count, metricName: `${name}_count` });
      }
      return { name, help, type: 'histogram', aggregator: 'sum', values };
    };
    return { name, help, type: 'histogram', aggregator: 'sum', get, reset: () => {} };
  }
}
