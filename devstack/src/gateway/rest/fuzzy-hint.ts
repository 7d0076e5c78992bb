/**
 * The closest name for PostgREST's "Perhaps you meant…" hints, scored as its `fuzzyset` library scores
 * (Data.FuzzySet: 3-grams then 2-grams of the lower-cased text kept to letters, digits, spaces and commas
 * and enclosed in hyphens; the best 50 by cosine similarity re-scored by normalised Levenshtein distance).
 * PostgREST asks for at least 0.75 for table and function names, and 0.33 for parameter lists.
 */

function normalized(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}\s,]/gu, '');
}

function gramCounts(text: string, size: number): Map<string, number> {
  const padded = `-${normalized(text)}-`;
  const counts = new Map<string, number>();
  for (let offset = 0; offset <= padded.length - size; offset++) {
    const gram = padded.slice(offset, offset + size);
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}

function magnitude(counts: Map<string, number>): number {
  return Math.sqrt([...counts.values()].reduce((sum, count) => sum + count * count, 0));
}

function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** 1 for equal texts, 0 for nothing in common (Data.Text.Metrics `levenshteinNorm`). */
function similarity(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 1 : 1 - levenshtein(a, b) / longest;
}

/** The candidate closest to `query` with a score of at least `minScore`, if any. */
export function closestMatch(
  candidates: readonly string[],
  query: string,
  minScore: number,
): string | undefined {
  const exact = candidates.find((candidate) => candidate.toLowerCase() === query.toLowerCase());
  if (exact !== undefined) return exact;
  for (const size of [3, 2]) {
    const queryGrams = gramCounts(query, size);
    const queryMagnitude = magnitude(queryGrams);
    const byCosine = candidates
      .map((candidate) => {
        const grams = gramCounts(candidate, size);
        let dot = 0;
        for (const [gram, count] of queryGrams) dot += count * (grams.get(gram) ?? 0);
        return { candidate, dot, cosine: dot / (queryMagnitude * magnitude(grams)) };
      })
      .filter(({ dot }) => dot > 0)
      .sort((a, b) => b.cosine - a.cosine)
      .slice(0, 50);
    const scored = byCosine
      .map(({ candidate }) => ({
        candidate,
        score: similarity(query.toLowerCase(), candidate.toLowerCase()),
      }))
      .filter(({ score }) => score >= minScore)
      .sort((a, b) => b.score - a.score);
    if (scored.length > 0) return scored[0]?.candidate;
  }
  return undefined;
}

/** PostgREST's parameter list as its hints write it: the names sorted, in parentheses. */
export function parameterList(names: Iterable<string>): string {
  return `(${[...names].sort().join(', ')})`;
}
