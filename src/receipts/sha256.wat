;; SHA-256 (FIPS 180-4) in hex, for the finding identities (src/receipts/sha256.ts).
;; `npm run wasm` assembles this file into sha256-wasm.ts (the module's bytes);
;; __tests__/receipts/sha256.test.ts checks that the two agree and holds every digest to
;; node:crypto's. The padding and the hex digits are done here too: each call from
;; JavaScript into a Buffer method costs more, in a fresh process, than the work.
;;
;; Memory (one 64 KiB page, exported; the caller grows it for longer messages):
;;     0 ..   64  the digest's 64 hex digits (ASCII)
;;    64 ..  320  K, the 64 round constants (the data segment below)
;;   320 ..  576  W, the message schedule of the block in hand
;;  1024 ..       the message, which the caller writes; padded here in place
(module
  (memory (export "memory") 1)
  (data (i32.const 64)
    "\98\2f\8a\42\91\44\37\71\cf\fb\c0\b5\a5\db\b5\e9" ;; 428a2f98 71374491 b5c0fbcf e9b5dba5
    "\5b\c2\56\39\f1\11\f1\59\a4\82\3f\92\d5\5e\1c\ab" ;; 3956c25b 59f111f1 923f82a4 ab1c5ed5
    "\98\aa\07\d8\01\5b\83\12\be\85\31\24\c3\7d\0c\55" ;; d807aa98 12835b01 243185be 550c7dc3
    "\74\5d\be\72\fe\b1\de\80\a7\06\dc\9b\74\f1\9b\c1" ;; 72be5d74 80deb1fe 9bdc06a7 c19bf174
    "\c1\69\9b\e4\86\47\be\ef\c6\9d\c1\0f\cc\a1\0c\24" ;; e49b69c1 efbe4786 0fc19dc6 240ca1cc
    "\6f\2c\e9\2d\aa\84\74\4a\dc\a9\b0\5c\da\88\f9\76" ;; 2de92c6f 4a7484aa 5cb0a9dc 76f988da
    "\52\51\3e\98\6d\c6\31\a8\c8\27\03\b0\c7\7f\59\bf" ;; 983e5152 a831c66d b00327c8 bf597fc7
    "\f3\0b\e0\c6\47\91\a7\d5\51\63\ca\06\67\29\29\14" ;; c6e00bf3 d5a79147 06ca6351 14292967
    "\85\0a\b7\27\38\21\1b\2e\fc\6d\2c\4d\13\0d\38\53" ;; 27b70a85 2e1b2138 4d2c6dfc 53380d13
    "\54\73\0a\65\bb\0a\6a\76\2e\c9\c2\81\85\2c\72\92" ;; 650a7354 766a0abb 81c2c92e 92722c85
    "\a1\e8\bf\a2\4b\66\1a\a8\70\8b\4b\c2\a3\51\6c\c7" ;; a2bfe8a1 a81a664b c24b8b70 c76c51a3
    "\19\e8\92\d1\24\06\99\d6\85\35\0e\f4\70\a0\6a\10" ;; d192e819 d6990624 f40e3585 106aa070
    "\16\c1\a4\19\08\6c\37\1e\4c\77\48\27\b5\bc\b0\34" ;; 19a4c116 1e376c08 2748774c 34b0bcb5
    "\b3\0c\1c\39\4a\aa\d8\4e\4f\ca\9c\5b\f3\6f\2e\68" ;; 391c0cb3 4ed8aa4a 5b9cca4f 682e6ff3
    "\ee\82\8f\74\6f\63\a5\78\14\78\c8\84\08\02\c7\8c" ;; 748f82ee 78a5636f 84c87814 8cc70208
    "\fa\ff\be\90\eb\6c\50\a4\f7\a3\f9\be\f2\78\71\c6" ;; 90befffa a4506ceb bef9a3f7 c67178f2
  )

  ;; A word with its bytes reversed: memory is little-endian, SHA-256 big-endian.
  (func $swap (param $x i32) (result i32)
    (i32.or
      (i32.and (i32.rotl (local.get $x) (i32.const 8)) (i32.const 0x00ff00ff))
      (i32.and (i32.rotr (local.get $x) (i32.const 8)) (i32.const 0xff00ff00))))

  ;; The SHA-256 of the `length` bytes at 1024, as 64 hex digits at 0.
  (func (export "hex") (param $length i32)
    (local $h0 i32) (local $h1 i32) (local $h2 i32) (local $h3 i32)
    (local $h4 i32) (local $h5 i32) (local $h6 i32) (local $h7 i32)
    (local $a i32) (local $b i32) (local $c i32) (local $d i32)
    (local $e i32) (local $f i32) (local $g i32) (local $h i32)
    (local $block i32) (local $end i32) (local $i i32) (local $w i32)
    (local $t1 i32) (local $t2 i32)
    ;; Padding (§5.1.1): a 1 bit, zeros up to 8 bytes short of a whole block, then the
    ;; length in bits as a 64-bit big-endian number.
    (local.set $end
      (i32.add (i32.const 1024)
        (i32.and (i32.add (local.get $length) (i32.const 72)) (i32.const -64))))
    (i32.store8 (i32.add (i32.const 1024) (local.get $length)) (i32.const 0x80))
    (memory.fill
      (i32.add (i32.const 1025) (local.get $length))
      (i32.const 0)
      (i32.sub (i32.sub (local.get $end) (i32.const 1033)) (local.get $length)))
    (i32.store (i32.sub (local.get $end) (i32.const 8))
      (call $swap (i32.shr_u (local.get $length) (i32.const 29))))
    (i32.store (i32.sub (local.get $end) (i32.const 4))
      (call $swap (i32.shl (local.get $length) (i32.const 3))))
    (local.set $h0 (i32.const 0x6a09e667)) (local.set $h1 (i32.const 0xbb67ae85))
    (local.set $h2 (i32.const 0x3c6ef372)) (local.set $h3 (i32.const 0xa54ff53a))
    (local.set $h4 (i32.const 0x510e527f)) (local.set $h5 (i32.const 0x9b05688c))
    (local.set $h6 (i32.const 0x1f83d9ab)) (local.set $h7 (i32.const 0x5be0cd19))
    (local.set $block (i32.const 1024))
    (block $done
      (loop $blocks
        (br_if $done (i32.ge_u (local.get $block) (local.get $end)))
        ;; W[0..16): the block's words.
        (local.set $i (i32.const 0))
        (loop $copy
          (i32.store (i32.add (i32.const 320) (local.get $i))
            (call $swap (i32.load (i32.add (local.get $block) (local.get $i)))))
          (local.set $i (i32.add (local.get $i) (i32.const 4)))
          (br_if $copy (i32.lt_u (local.get $i) (i32.const 64))))
        ;; W[16..64): W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16]; $i is 4t.
        (loop $schedule
          (local.set $w (i32.load (i32.add (i32.const 312) (local.get $i))))  ;; W[t-2]
          (local.set $t1
            (i32.xor (i32.xor (i32.rotr (local.get $w) (i32.const 17))
                              (i32.rotr (local.get $w) (i32.const 19)))
                     (i32.shr_u (local.get $w) (i32.const 10))))
          (local.set $w (i32.load (i32.add (i32.const 260) (local.get $i))))  ;; W[t-15]
          (local.set $t2
            (i32.xor (i32.xor (i32.rotr (local.get $w) (i32.const 7))
                              (i32.rotr (local.get $w) (i32.const 18)))
                     (i32.shr_u (local.get $w) (i32.const 3))))
          (i32.store (i32.add (i32.const 320) (local.get $i))
            (i32.add
              (i32.add (local.get $t1) (i32.load (i32.add (i32.const 292) (local.get $i))))  ;; W[t-7]
              (i32.add (local.get $t2) (i32.load (i32.add (i32.const 256) (local.get $i)))))) ;; W[t-16]
          (local.set $i (i32.add (local.get $i) (i32.const 4)))
          (br_if $schedule (i32.lt_u (local.get $i) (i32.const 256))))
        (local.set $a (local.get $h0)) (local.set $b (local.get $h1))
        (local.set $c (local.get $h2)) (local.set $d (local.get $h3))
        (local.set $e (local.get $h4)) (local.set $f (local.get $h5))
        (local.set $g (local.get $h6)) (local.set $h (local.get $h7))
        ;; The 64 rounds; $i is 4t.
        (local.set $i (i32.const 0))
        (loop $rounds
          ;; T1 = h + Σ1(e) + Ch(e, f, g) + K[t] + W[t]
          (local.set $t1
            (i32.add
              (i32.add
                (i32.add (local.get $h)
                  (i32.xor (i32.xor (i32.rotr (local.get $e) (i32.const 6))
                                    (i32.rotr (local.get $e) (i32.const 11)))
                           (i32.rotr (local.get $e) (i32.const 25))))
                (i32.xor (i32.and (local.get $e) (local.get $f))
                         (i32.and (i32.xor (local.get $e) (i32.const -1)) (local.get $g))))
              (i32.add (i32.load (i32.add (i32.const 64) (local.get $i)))
                       (i32.load (i32.add (i32.const 320) (local.get $i))))))
          ;; T2 = Σ0(a) + Maj(a, b, c)
          (local.set $t2
            (i32.add
              (i32.xor (i32.xor (i32.rotr (local.get $a) (i32.const 2))
                                (i32.rotr (local.get $a) (i32.const 13)))
                       (i32.rotr (local.get $a) (i32.const 22)))
              (i32.xor (i32.xor (i32.and (local.get $a) (local.get $b))
                                (i32.and (local.get $a) (local.get $c)))
                       (i32.and (local.get $b) (local.get $c)))))
          (local.set $h (local.get $g))
          (local.set $g (local.get $f))
          (local.set $f (local.get $e))
          (local.set $e (i32.add (local.get $d) (local.get $t1)))
          (local.set $d (local.get $c))
          (local.set $c (local.get $b))
          (local.set $b (local.get $a))
          (local.set $a (i32.add (local.get $t1) (local.get $t2)))
          (local.set $i (i32.add (local.get $i) (i32.const 4)))
          (br_if $rounds (i32.lt_u (local.get $i) (i32.const 256))))
        (local.set $h0 (i32.add (local.get $h0) (local.get $a)))
        (local.set $h1 (i32.add (local.get $h1) (local.get $b)))
        (local.set $h2 (i32.add (local.get $h2) (local.get $c)))
        (local.set $h3 (i32.add (local.get $h3) (local.get $d)))
        (local.set $h4 (i32.add (local.get $h4) (local.get $e)))
        (local.set $h5 (i32.add (local.get $h5) (local.get $f)))
        (local.set $h6 (i32.add (local.get $h6) (local.get $g)))
        (local.set $h7 (i32.add (local.get $h7) (local.get $h)))
        (local.set $block (i32.add (local.get $block) (i32.const 64)))
        (br $blocks)))
    (call $digits (i32.const 0) (local.get $h0))
    (call $digits (i32.const 8) (local.get $h1))
    (call $digits (i32.const 16) (local.get $h2))
    (call $digits (i32.const 24) (local.get $h3))
    (call $digits (i32.const 32) (local.get $h4))
    (call $digits (i32.const 40) (local.get $h5))
    (call $digits (i32.const 48) (local.get $h6))
    (call $digits (i32.const 56) (local.get $h7)))

  ;; The 8 hex digits of `word` (lower case, most significant first) at `at`.
  (func $digits (param $at i32) (param $word i32)
    (local $i i32) (local $nibble i32)
    (local.set $i (i32.const 7))
    (loop $next
      (local.set $nibble (i32.and (local.get $word) (i32.const 15)))
      (i32.store8 (i32.add (local.get $at) (local.get $i))
        (i32.add (local.get $nibble)
          (select (i32.const 48) (i32.const 87) (i32.lt_u (local.get $nibble) (i32.const 10)))))
      (local.set $word (i32.shr_u (local.get $word) (i32.const 4)))
      (local.set $i (i32.sub (local.get $i) (i32.const 1)))
      (br_if $next (i32.ge_s (local.get $i) (i32.const 0)))))
)
