import { isRemoteUrl, resolveSourcePath, type CompositionMetadata } from '@seekframe/composition';
import { apiError } from './api-error.js';
import { isServerNetworkHost } from './server-network-host.js';

/**
 * A posted document is rendered alone, in a folder of its own: a `data-composition-src` in it can
 * never load (a path names a file it does not bring, a URL is another origin, and the sandbox
 * refuses `file:` and the server's own network). Refused at once with 400 `invalid-composition`
 * and the reason for each, instead of a render that fails in lint or waits out its ready timeout.
 */
export function checkCustomHtmlSources(metadata: CompositionMetadata): void {
  const problems = metadata.subCompositions.map((sub) => ({ id: sub.id, src: sub.src.slice(0, 200), reason: sourceProblem(sub.src) }));
  if (problems.length === 0) return;
  throw apiError(
    'invalid-composition',
    `The posted html cannot render: ${problems.map((p) => `data-composition-src="${p.src}" on "${p.id}" ${p.reason}`).join('; ')}. ` +
      "A posted document is rendered alone: put each sub-composition's content inline (an element with data-composition-id, data-start and data-duration), or deploy its file with the template's composition.",
    { stage: 'load', details: { problems } },
  );
}

function sourceProblem(src: string): string {
  if (src.trim() === '') return 'is empty';
  if (isRemoteUrl(src)) {
    let url: URL;
    try {
      url = new URL(src.startsWith('//') ? `https:${src}` : src);
    } catch {
      return 'is not a valid URL';
    }
    if (url.protocol === 'file:') return "is a file: URL, and a render never reads the server's own files";
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return `is a ${url.protocol} URL, not a file of the composition`;
    if (isServerNetworkHost(url.hostname)) return "names an address on the server's own machine or network, which renders never reach";
    return 'is on another origin, and a sub-composition loads only from its own composition';
  }
  const resolved = resolveSourcePath('index.html', src, '.');
  if (resolved === '..' || resolved.startsWith('../')) return "leaves the document's folder";
  return 'names a file the posted document does not bring (it is one file)';
}
