;; BGRA pixels (8 bits each, as a canvas VideoFrame copies them out) to I420 (yuv420p), BT.709
;; limited range: the planes x264 encodes, so ffmpeg converts nothing and the page sends 1.5
;; bytes per pixel instead of 4. Used by canvas capture's frame sender (canvas-capture.ts).
;;
;; Integer maths, 8 fractional bits (the coefficients of BT.709 scaled to 16-235 / 16-240, rounded
;; so that each chroma row sums to 0: grey stays exactly 128):
;;   Y = (47 R + 157 G + 16 B + 16.5 * 256) >> 8
;;   U = (-26 R - 86 G + 112 B) / 256 + 128.5, from the sum of a 2x2 block (so >> 10)
;;   V = (112 R - 102 G - 10 B) / 256 + 128.5, likewise
;; Four pixels per 128-bit vector, eight columns of two rows per step: width must be a multiple
;; of 8 and height even (the caller sends BGRA otherwise).
;;
;; Assembled with wabt (scripts/build-bgra-to-i420.mjs) into bgra-to-i420-wasm.ts.
(module
  (memory (export "memory") 1)

  ;; Y of four pixels from their channels, as four 32-bit lanes.
  (func $luma (param $r v128) (param $g v128) (param $b v128) (result v128)
    (i32x4.shr_u
      (i32x4.add
        (i32x4.add
          (i32x4.mul (local.get $r) (i32x4.splat (i32.const 47)))
          (i32x4.mul (local.get $g) (i32x4.splat (i32.const 157))))
        (i32x4.add
          (i32x4.mul (local.get $b) (i32x4.splat (i32.const 16)))
          (i32x4.splat (i32.const 4224))))
      (i32.const 8)))

  ;; Sums of horizontal pixel pairs of eight pixels (a = pixels 0-3, b = 4-7) of one channel.
  (func $pairs (param $a v128) (param $b v128) (result v128)
    (i32x4.add
      (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27 (local.get $a) (local.get $b))
      (i8x16.shuffle 4 5 6 7 12 13 14 15 20 21 22 23 28 29 30 31 (local.get $a) (local.get $b))))

  ;; Four 32-bit lanes (each 0-255) as four bytes at $at.
  (func $store4 (param $at i32) (param $v v128)
    (i32.store (local.get $at)
      (i32x4.extract_lane 0
        (i8x16.narrow_i16x8_u
          (i16x8.narrow_i32x4_u (local.get $v) (local.get $v))
          (i16x8.narrow_i32x4_u (local.get $v) (local.get $v))))))

  ;; Eight 32-bit lanes (a, b; each 0-255) as eight bytes at $at.
  (func $store8 (param $at i32) (param $a v128) (param $b v128)
    (i64.store (local.get $at)
      (i64x2.extract_lane 0
        (i8x16.narrow_i16x8_u
          (i16x8.narrow_i32x4_u (local.get $a) (local.get $b))
          (i16x8.narrow_i32x4_u (local.get $a) (local.get $b))))))

  (func (export "convert") (param $src i32) (param $dst i32) (param $width i32) (param $height i32)
    (local $y i32) (local $x i32) (local $row0 i32) (local $row1 i32) (local $yOut0 i32) (local $yOut1 i32)
    (local $uOut i32) (local $vOut i32) (local $stride i32)
    (local $a0 v128) (local $b0 v128) (local $a1 v128) (local $b1 v128)
    (local $r v128) (local $g v128) (local $bl v128) (local $mask v128)
    (local $ra0 v128) (local $ga0 v128) (local $ba0 v128) (local $rb0 v128) (local $gb0 v128) (local $bb0 v128)
    (local $ra1 v128) (local $ga1 v128) (local $ba1 v128) (local $rb1 v128) (local $gb1 v128) (local $bb1 v128)
    (local.set $stride (i32.shl (local.get $width) (i32.const 2)))
    (local.set $uOut (i32.add (local.get $dst) (i32.mul (local.get $width) (local.get $height))))
    (local.set $vOut
      (i32.add (local.get $uOut) (i32.shr_u (i32.mul (local.get $width) (local.get $height)) (i32.const 2))))
    (local.set $y (i32.const 0))
    (block $rows_done
      (loop $rows
        (br_if $rows_done (i32.ge_u (local.get $y) (local.get $height)))
        (local.set $row0 (i32.add (local.get $src) (i32.mul (local.get $y) (local.get $stride))))
        (local.set $row1 (i32.add (local.get $row0) (local.get $stride)))
        (local.set $yOut0 (i32.add (local.get $dst) (i32.mul (local.get $y) (local.get $width))))
        (local.set $yOut1 (i32.add (local.get $yOut0) (local.get $width)))
        (local.set $x (i32.const 0))
        (block $cols_done
          (loop $cols
            (br_if $cols_done (i32.ge_u (local.get $x) (local.get $width)))
            (local.set $mask (i32x4.splat (i32.const 255)))
            (local.set $a0 (v128.load (local.get $row0)))
            (local.set $b0 (v128.load offset=16 (local.get $row0)))
            (local.set $a1 (v128.load (local.get $row1)))
            (local.set $b1 (v128.load offset=16 (local.get $row1)))
            ;; Each channel of each four pixels once (B in the low byte of a little-endian word).
            (local.set $ra0 (v128.and (i32x4.shr_u (local.get $a0) (i32.const 16)) (local.get $mask)))
            (local.set $ga0 (v128.and (i32x4.shr_u (local.get $a0) (i32.const 8)) (local.get $mask)))
            (local.set $ba0 (v128.and (local.get $a0) (local.get $mask)))
            (local.set $rb0 (v128.and (i32x4.shr_u (local.get $b0) (i32.const 16)) (local.get $mask)))
            (local.set $gb0 (v128.and (i32x4.shr_u (local.get $b0) (i32.const 8)) (local.get $mask)))
            (local.set $bb0 (v128.and (local.get $b0) (local.get $mask)))
            (local.set $ra1 (v128.and (i32x4.shr_u (local.get $a1) (i32.const 16)) (local.get $mask)))
            (local.set $ga1 (v128.and (i32x4.shr_u (local.get $a1) (i32.const 8)) (local.get $mask)))
            (local.set $ba1 (v128.and (local.get $a1) (local.get $mask)))
            (local.set $rb1 (v128.and (i32x4.shr_u (local.get $b1) (i32.const 16)) (local.get $mask)))
            (local.set $gb1 (v128.and (i32x4.shr_u (local.get $b1) (i32.const 8)) (local.get $mask)))
            (local.set $bb1 (v128.and (local.get $b1) (local.get $mask)))
            (call $store8 (local.get $yOut0)
              (call $luma (local.get $ra0) (local.get $ga0) (local.get $ba0))
              (call $luma (local.get $rb0) (local.get $gb0) (local.get $bb0)))
            (call $store8 (local.get $yOut1)
              (call $luma (local.get $ra1) (local.get $ga1) (local.get $ba1))
              (call $luma (local.get $rb1) (local.get $gb1) (local.get $bb1)))
            ;; Channel sums of the four 2x2 blocks these eight columns hold.
            (local.set $r
              (call $pairs (i32x4.add (local.get $ra0) (local.get $ra1)) (i32x4.add (local.get $rb0) (local.get $rb1))))
            (local.set $g
              (call $pairs (i32x4.add (local.get $ga0) (local.get $ga1)) (i32x4.add (local.get $gb0) (local.get $gb1))))
            (local.set $bl
              (call $pairs (i32x4.add (local.get $ba0) (local.get $ba1)) (i32x4.add (local.get $bb0) (local.get $bb1))))
            (call $store4 (local.get $uOut)
              (i32x4.shr_s
                (i32x4.add
                  (i32x4.add
                    (i32x4.mul (local.get $r) (i32x4.splat (i32.const -26)))
                    (i32x4.mul (local.get $g) (i32x4.splat (i32.const -86))))
                  (i32x4.add
                    (i32x4.mul (local.get $bl) (i32x4.splat (i32.const 112)))
                    (i32x4.splat (i32.const 131584))))
                (i32.const 10)))
            (call $store4 (local.get $vOut)
              (i32x4.shr_s
                (i32x4.add
                  (i32x4.add
                    (i32x4.mul (local.get $r) (i32x4.splat (i32.const 112)))
                    (i32x4.mul (local.get $g) (i32x4.splat (i32.const -102))))
                  (i32x4.add
                    (i32x4.mul (local.get $bl) (i32x4.splat (i32.const -10)))
                    (i32x4.splat (i32.const 131584))))
                (i32.const 10)))
            (local.set $row0 (i32.add (local.get $row0) (i32.const 32)))
            (local.set $row1 (i32.add (local.get $row1) (i32.const 32)))
            (local.set $yOut0 (i32.add (local.get $yOut0) (i32.const 8)))
            (local.set $yOut1 (i32.add (local.get $yOut1) (i32.const 8)))
            (local.set $uOut (i32.add (local.get $uOut) (i32.const 4)))
            (local.set $vOut (i32.add (local.get $vOut) (i32.const 4)))
            (local.set $x (i32.add (local.get $x) (i32.const 8)))
            (br $cols)))
        (local.set $y (i32.add (local.get $y) (i32.const 2)))
        (br $rows)))))
