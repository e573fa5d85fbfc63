import {
  ERROR_CODES,
  ERROR_DOCS,
  ERROR_GROUPS,
  ERROR_HTTP_STATUS,
  TOOL_ONLY_CODES,
  type ErrorCode,
  type ErrorGroup,
} from '@seekframe/composition';
import { generatedNotice } from './generated-notice.js';
import { cell } from './markdown-table.js';

export function errorReference(): string {
  const lines = [
    '---',
    'title: "Error codes"',
    'description: "Every error code Seekframe reports, when it happens and what to do."',
    '---',
    '',
    generatedNotice('ERROR_CODES, ERROR_DOCS and ERROR_HTTP_STATUS in core/composition/src'),
    '',
    '# Error codes',
    '',
    'Every error a command, the render server, a deploy template or the Lambda API reports carries one of these',
    'codes: `code` in `{"error": {"code", "message", "stage"?, "retryable", "details"?}}`, and in the CLI\'s',
    '`--json` error line. The list is closed and the codes are stable; the message names the file, field or URL',
    'and the fix. `retryable` tells a queue whether trying again can help.',
    '',
    'The HTTP status is the same on every HTTP face (the render API of each template, `seekframe serve`, the Lambda',
    'API, the render container): one table, `ERROR_HTTP_STATUS`, next to the codes. "—" marks a code that only a',
    'command-line tool, the player or a build raises: no server answers it (one that reached a server anyway would be a 500).',
    '',
  ];
  const groups = Object.keys(ERROR_GROUPS) as ErrorGroup[];
  for (const group of groups) {
    const codes = ERROR_CODES.filter((code) => ERROR_DOCS[code].group === group).sort();
    lines.push(`## ${ERROR_GROUPS[group]}`, '', '| code | HTTP | when | what to do |', '|---|---|---|---|');
    for (const code of codes) {
      const doc = ERROR_DOCS[code];
      const http = (TOOL_ONLY_CODES as readonly ErrorCode[]).includes(code) ? '—' : String(ERROR_HTTP_STATUS[code]);
      lines.push(`| <code id="${code}">${code}</code> | ${http} | ${cell(doc.when)} | ${cell(doc.fix)} |`);
    }
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
