import { describe, expect, it } from 'vitest';
import { buildDockerArgv } from './docker-argv.js';

const base = {
  image: 'seekframe/render:0.1.0',
  projectRoot: '/home/ada/promo',
  entry: 'index.html',
  output: '/home/ada/renders/promo.mp4',
  user: { uid: 1000, gid: 1000 },
  env: {},
};

describe('buildDockerArgv', () => {
  it('mounts the project read-only and the output folder read-write, runs as the caller, forces beginframe and software Chromium', () => {
    expect(buildDockerArgv({ ...base, flags: { quality: 'high', fps: '24', workers: '2', strictVariables: true, json: true } })).toEqual([
      'run',
      '--rm',
      '--user',
      '1000:1000',
      '--shm-size',
      '1g',
      '--mount',
      'type=bind,source=/home/ada/promo,target=/project,readonly',
      '--mount',
      'type=bind,source=/home/ada/renders,target=/output',
      '--env',
      'HOME=/tmp',
      '--workdir',
      '/project',
      'seekframe/render:0.1.0',
      'render',
      '/project',
      '--output',
      '/output/promo.mp4',
      '--capture-mode',
      'beginframe',
      '--no-browser-gpu',
      '--quality',
      'high',
      '--fps',
      '24',
      '--workers',
      '2',
      '--strict-variables',
      '--json',
    ]);
  });

  it('passes every other flag through, rewrites paths to mounts and never passes host-only flags', () => {
    const argv = buildDockerArgv({
      ...base,
      entry: 'scenes/intro.html',
      output: '/out dir/a,b.webm',
      variablesFile: '/home/ada/vars.json',
      flags: {
        docker: true,
        output: 'ignored-host-path.webm',
        captureMode: 'auto',
        browserGpu: false,
        variablesFile: 'vars.json',
        variables: undefined,
        format: 'webm',
        crf: '30',
        gpu: true,
        sdr: true,
        videoFrameFormat: 'png',
      },
      env: { SEEKFRAME_DEBUG: '1', NO_COLOR: '1', HOME: '/home/ada', AWS_SECRET_ACCESS_KEY: 'x', PATH: '/usr/bin' },
    });
    expect(argv).toEqual([
      'run',
      '--rm',
      '--user',
      '1000:1000',
      '--shm-size',
      '1g',
      '--mount',
      'type=bind,source=/home/ada/promo,target=/project,readonly',
      '--mount',
      'type=bind,source=/out dir,target=/output',
      '--mount',
      'type=bind,source=/home/ada/vars.json,target=/inputs/variables.json,readonly',
      '--env',
      'HOME=/tmp',
      '--workdir',
      '/project',
      '--env',
      'SEEKFRAME_DEBUG=1',
      '--env',
      'NO_COLOR=1',
      'seekframe/render:0.1.0',
      'render',
      '/project/scenes/intro.html',
      '--output',
      '/output/a,b.webm',
      '--capture-mode',
      'beginframe',
      '--no-browser-gpu',
      '--variables-file',
      '/inputs/variables.json',
      '--format',
      'webm',
      '--crf',
      '30',
      '--gpu',
      '--sdr',
      '--video-frame-format',
      'png',
    ]);
  });

  it('quotes a path with a comma inside the mount field (docker reads --mount as CSV) and leaves out --user without a uid', () => {
    const { user: _user, ...noUser } = base;
    const argv = buildDockerArgv({ ...noUser, projectRoot: '/p,q', flags: { variables: '{"title":"a b"}' } });
    expect(argv).not.toContain('--user');
    expect(argv).toContain('type=bind,"source=/p,q",target=/project,readonly');
    expect(argv.slice(-2)).toEqual(['--variables', '{"title":"a b"}']);
  });
});
