import { describe, expect, it } from 'vitest';
import { chooseEditor } from './editor-link.js';
import { fillEditorTemplate } from './editor-template.js';

const none = (): boolean => false;
const codeOnly = (command: string): boolean => command === 'code';
const at = { file: '/home/me/my film/index.html', line: 12, column: 5 };

describe('chooseEditor', () => {
  it('links VS Code and friends from $EDITOR, $VISUAL first, arguments and folders ignored', () => {
    expect(chooseEditor({ EDITOR: '/usr/bin/code --wait' }, none).editor).toEqual({
      name: 'VS Code',
      url: 'vscode://file{file}:{line}:{column}',
      command: null,
      from: 'EDITOR',
    });
    expect(chooseEditor({ EDITOR: 'vim', VISUAL: 'cursor' }, none).editor?.name).toBe('Cursor');
    expect(chooseEditor({ EDITOR: 'subl -w' }, none).editor?.url).toBe('subl://open?url=file://{file}&line={line}&column={column}');
  });

  it('gives terminal editors a command to copy, and a VS Code link too when code is on the PATH', () => {
    expect(chooseEditor({ EDITOR: 'nvim' }, none).editor).toEqual({
      name: 'nvim',
      url: null,
      command: 'nvim +{line} {file}',
      from: 'EDITOR',
    });
    expect(chooseEditor({ EDITOR: 'nvim' }, codeOnly).editor?.url).toBe('vscode://file{file}:{line}:{column}');
    expect(chooseEditor({ EDITOR: 'myed' }, none).editor?.command).toBe('myed {file}');
  });

  it('falls back to code on the PATH, else no editor', () => {
    expect(chooseEditor({}, codeOnly).editor).toMatchObject({ name: 'VS Code', from: 'PATH' });
    expect(chooseEditor({ EDITOR: ' ' }, none)).toEqual({ editor: null });
  });

  it('takes SEEKFRAME_EDITOR_URL first, and refuses one without {file} or with a dangerous scheme', () => {
    expect(chooseEditor({ SEEKFRAME_EDITOR_URL: 'idea://open?file={file}&line={line}', EDITOR: 'code' }, none).editor).toEqual({
      name: 'your editor',
      url: 'idea://open?file={file}&line={line}',
      command: null,
      from: 'SEEKFRAME_EDITOR_URL',
    });
    const bad = chooseEditor({ SEEKFRAME_EDITOR_URL: 'javascript:alert({file})', EDITOR: 'code' }, none);
    expect(bad.problem).toContain('not javascript:');
    expect(bad.editor?.name).toBe('VS Code');
    expect(chooseEditor({ SEEKFRAME_EDITOR_URL: 'vscode://file/x' }, none).problem).toContain('must contain {file}');
  });
});

describe('fillEditorTemplate', () => {
  it('encodes the path for links and quotes it for commands', () => {
    expect(fillEditorTemplate('vscode://file{file}:{line}:{column}', at, 'url')).toBe('vscode://file/home/me/my%20film/index.html:12:5');
    expect(fillEditorTemplate('x://open?file={file}', { ...at, file: '/a?b#c&d.html' }, 'url')).toBe('x://open?file=/a%3Fb%23c%26d.html');
    expect(fillEditorTemplate('vim +{line} {file}', at, 'command')).toBe("vim +12 '/home/me/my film/index.html'");
    expect(fillEditorTemplate('vim +{line} {file}', { ...at, file: "/it's.html" }, 'command')).toBe("vim +12 '/it'\\''s.html'");
  });
});
