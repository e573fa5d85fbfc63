import { describe, expect, it } from 'vitest';
import { hardwareEncoderArgs, videoToolboxQuality, VAAPI_DEVICE } from './hardware-encoders.js';

describe('hardwareEncoderArgs: presets, --crf and --video-bitrate on each backend', () => {
  it('nvenc: preset p1/p5/p7, constant quality through -cq, bit rate through -rc vbr -b:v', () => {
    expect(hardwareEncoderArgs('h264_nvenc', { quality: 'draft', crf: 28 })).toEqual({
      inputArgs: [],
      filters: ['format=yuv420p'],
      args: ['-c:v', 'h264_nvenc', '-preset', 'p1', '-rc', 'vbr', '-cq', '28', '-b:v', '0'],
    });
    expect(hardwareEncoderArgs('h264_nvenc', { quality: 'standard', crf: 18 }).args).toEqual([
      '-c:v',
      'h264_nvenc',
      '-preset',
      'p5',
      '-rc',
      'vbr',
      '-cq',
      '18',
      '-b:v',
      '0',
    ]);
    expect(hardwareEncoderArgs('h264_nvenc', { quality: 'high', crf: 15, videoBitrate: '8M' }).args).toEqual([
      '-c:v',
      'h264_nvenc',
      '-preset',
      'p7',
      '-rc',
      'vbr',
      '-b:v',
      '8M',
    ]);
  });

  it('vaapi: uploads NV12 frames to the render node, -qp in CQP mode, -b:v in VBR mode', () => {
    expect(hardwareEncoderArgs('h264_vaapi', { quality: 'standard', crf: 20 })).toEqual({
      inputArgs: ['-vaapi_device', VAAPI_DEVICE],
      filters: ['format=nv12', 'hwupload'],
      args: ['-c:v', 'h264_vaapi', '-rc_mode', 'CQP', '-qp', '20'],
    });
    expect(hardwareEncoderArgs('h264_vaapi', { quality: 'draft', crf: 28, videoBitrate: '2500k' }).args).toEqual([
      '-c:v',
      'h264_vaapi',
      '-rc_mode',
      'VBR',
      '-b:v',
      '2500k',
    ]);
  });

  it('qsv: NV12, x264-named presets, -global_quality or -b:v', () => {
    expect(hardwareEncoderArgs('h264_qsv', { quality: 'high', crf: 15 })).toEqual({
      inputArgs: [],
      filters: ['format=nv12'],
      args: ['-c:v', 'h264_qsv', '-preset', 'veryslow', '-global_quality', '15'],
    });
    expect(hardwareEncoderArgs('h264_qsv', { quality: 'draft', crf: 28, videoBitrate: '4M' }).args).toEqual([
      '-c:v',
      'h264_qsv',
      '-preset',
      'veryfast',
      '-b:v',
      '4M',
    ]);
  });

  it('videotoolbox: -q:v on its 1-100 scale (higher is better) or -b:v', () => {
    expect(hardwareEncoderArgs('h264_videotoolbox', { quality: 'standard', crf: 18 })).toEqual({
      inputArgs: [],
      filters: ['format=yuv420p'],
      args: ['-c:v', 'h264_videotoolbox', '-q:v', '65'],
    });
    expect(hardwareEncoderArgs('h264_videotoolbox', { quality: 'standard', crf: 18, videoBitrate: '6M' }).args).toEqual([
      '-c:v',
      'h264_videotoolbox',
      '-b:v',
      '6M',
    ]);
    expect([0, 15, 28, 51].map(videoToolboxQuality)).toEqual([100, 71, 46, 1]);
  });
});
