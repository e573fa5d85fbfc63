import { describe, expect, it } from 'vitest';
import { chooseHardwareEncoder } from './choose-hardware-encoder.js';

describe('chooseHardwareEncoder', () => {
  it('uses the encoder the probe found', async () => {
    const choice = await chooseHardwareEncoder('mp4', async () => ({
      encoder: 'h264_vaapi',
      tried: [
        { encoder: 'h264_nvenc', ok: false, reason: 'no device' },
        { encoder: 'h264_vaapi', ok: true },
      ],
    }));
    expect(choice).toEqual({ encoder: 'h264_vaapi' });
  });

  it('falls back to libx264 with a warning naming every backend and its reason', async () => {
    const choice = await chooseHardwareEncoder('mp4', async () => ({
      encoder: null,
      tried: [
        { encoder: 'h264_nvenc', ok: false, reason: 'Cannot load libcuda.so.1' },
        { encoder: 'h264_vaapi', ok: false, reason: 'No VA display found for device /dev/dri/renderD128.' },
        { encoder: 'h264_qsv', ok: false, reason: 'Error initializing an internal MFX session' },
        { encoder: 'h264_videotoolbox', ok: false, reason: 'not built into this ffmpeg' },
      ],
    }));
    expect(choice.encoder).toBeUndefined();
    expect(choice.warning).toMatchObject({ type: 'warning', code: 'gpu/software-fallback' });
    expect(choice.warning?.message).toBe(
      '--gpu: no hardware H.264 encoder works on this machine, encoding with libx264 instead (h264_nvenc: Cannot load libcuda.so.1; ' +
        'h264_vaapi: No VA display found for device /dev/dri/renderD128.; h264_qsv: Error initializing an internal MFX session; h264_videotoolbox: not built into this ffmpeg).',
    );
  });

  it('keeps alpha formats in software without probing', async () => {
    const never = async (): Promise<never> => {
      throw new Error('must not probe');
    };
    const webm = await chooseHardwareEncoder('webm', never);
    expect(webm.encoder).toBeUndefined();
    expect(webm.warning?.code).toBe('gpu/unsupported-format');
    expect(webm.warning?.message).toMatch(/alpha channel.*libvpx-vp9/);
    expect((await chooseHardwareEncoder('gif', never)).warning?.message).toMatch(/none exists for it/);
  });
});
