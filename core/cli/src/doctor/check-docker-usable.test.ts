import { describe, expect, it } from 'vitest';
import { SeekframeError } from '@seekframe/composition';
import { checkDockerUsable } from './check-docker-usable.js';

describe('checkDockerUsable', () => {
  it('absent Docker is fine; a stopped engine or a missing image is a warning carrying the fix', () => {
    expect(checkDockerUsable(new SeekframeError('docker-not-found', 'Install Docker'))).toMatchObject({
      status: 'ok',
      summary: 'not installed (only render --docker needs it)',
    });
    expect(checkDockerUsable(new SeekframeError('docker-unreachable', 'Start Docker'))).toEqual({
      id: 'docker',
      title: 'Docker',
      status: 'warn',
      summary: 'engine not reachable',
      fix: 'Start Docker',
    });
    expect(checkDockerUsable(new SeekframeError('docker-image-missing', 'docker build -t x infra/docker'))).toMatchObject({
      status: 'warn',
      summary: 'image missing',
      fix: 'docker build -t x infra/docker',
    });
    expect(
      checkDockerUsable({
        docker: '/usr/bin/docker',
        endpoint: 'unix:///var/run/docker.sock',
        serverVersion: 'API 1.45',
        image: 'seekframe/render:0.1.0',
      }).summary,
    ).toBe('engine at unix:///var/run/docker.sock (API 1.45), image seekframe/render:0.1.0 present: render --docker works');
  });
});

describe('checkDockerUsable with image labels', () => {
  it('names the Chromium, ffmpeg and font versions the image holds', () => {
    const summary = checkDockerUsable({
      docker: '/usr/bin/docker',
      endpoint: 'podman (through the docker command)',
      serverVersion: 'podman 4.3.1',
      image: 'seekframe/render:0.1.0',
      imageVersions: {
        'chromium-headless-shell': '156.0.8078.108-1~deb12u1',
        ffmpeg: '7:5.1.9-0+deb12u1',
        'fonts-noto-core': '20201225-1',
        tini: '0.19.0-1+b3',
        pins: 'preferred',
      },
    }).summary;
    expect(summary).toBe(
      'engine at podman (through the docker command) (podman 4.3.1), image seekframe/render:0.1.0 present (Chromium 156.0.8078.108-1~deb12u1, ffmpeg 7:5.1.9-0+deb12u1, Noto 20201225-1): render --docker works',
    );
  });
});
