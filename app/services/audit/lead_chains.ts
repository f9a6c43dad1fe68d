import {
  EdgeReader,
  type Edges,
  type HashText,
  hashTextString,
  sameHashText,
} from '#services/audit/chain_edges'
import type { LogFailure } from '#services/audit/verify_chunk'
import type { BinaryTuples } from '#services/audit/pg_binary_copy'
import { UuidIndex } from '#services/audit/uuid_index'

/** 64 zeros: the prev_hash of a lead's first entry. */
const GENESIS: HashText = { bytes: new Uint8Array(32), at: 0, odd: undefined }

/**
 * Every lead's chain as far as whole-log verification has read it: its
 * last lead_seq and hash, carried from chunk to chunk in log order, then
 * held against the chain heads. Typed arrays by lead number rather than a
 * Map of objects: the log may hold millions of leads.
 */
export class LeadChains {
  #leads = new UuidIndex(1 << 16)
  #seq = new Int32Array(1 << 16)
  #hash = new Uint8Array(32 << 16)
  /** Last hashes that are not 64 lowercase hex digits, by lead number. */
  #odd = new Map<number, string>()
  #headSeen = new Uint8Array(1 << 16)

  get size() {
    return this.#leads.size
  }

  /**
   * Carries each lead's chain into a chunk: its first entry there must
   * follow its last entry in an earlier chunk (or be lead_seq 1 after 64
   * zeros).
   */
  stitch(edges: Edges, fail: (failure: LogFailure) => void) {
    const reader = new EdgeReader(edges)
    for (let n = 0; n < edges.count; n++) this.#stitchEdge(reader, n, fail)
  }

  #stitchEdge(reader: EdgeReader, n: number, fail: (failure: LogFailure) => void) {
    let lead = this.#leads.find(reader.bytes, reader.leadAt(n))
    const known = lead >= 0
    const firstSeq = reader.firstSeq(n)
    const before = known ? this.#seq[lead] : 0
    if (!known) lead = this.#add(reader.bytes, reader.leadAt(n))
    if (firstSeq !== before + 1) {
      fail({
        reason: 'seq_gap',
        ...this.#where(reader, n, lead),
        detail: `lead_seq ${firstSeq} follows ${before}`,
      })
    } else if (!sameHashText(reader.firstPrev(n), known ? this.#last(lead) : GENESIS)) {
      fail({
        reason: 'prev_hash_mismatch',
        ...this.#where(reader, n, lead),
        detail: `prev_hash is not the hash of lead_seq ${before}`,
      })
    }
    this.#seq[lead] = reader.lastSeq(n)
    const last = reader.lastHash(n)
    if (last.odd === undefined) {
      for (let i = 0; i < 32; i++) this.#hash[lead * 32 + i] = last.bytes[last.at + i]
      this.#odd.delete(lead)
    } else {
      this.#odd.set(lead, last.odd)
    }
  }

  #where(reader: EdgeReader, n: number, lead: number) {
    return {
      log_index: reader.logIndex(n),
      entry_id: reader.entryId(n),
      lead_id: this.#leads.uuid(lead),
      lead_seq: reader.firstSeq(n),
    }
  }

  /**
   * Each chain head (rows of lead_id, last_seq, last_hash) must name its
   * trail's last entry; a head without entries is a trail deleted, a trail
   * without a head one the head lost.
   */
  checkHeads(heads: BinaryTuples, report: (failure: LogFailure) => void) {
    const stated: HashText = { bytes: new Uint8Array(32), at: 0, odd: undefined }
    while (heads.next()) this.#checkHead(heads, stated, report)
    for (let lead = 0; lead < this.#leads.size; lead++) {
      if (this.#headSeen[lead]) continue
      const leadId = this.#leads.uuid(lead)
      report({
        reason: 'chain_head_missing',
        lead_id: leadId,
        lead_seq: this.#seq[lead],
        detail: `lead ${leadId} has entries but no chain head`,
      })
    }
  }

  #checkHead(heads: BinaryTuples, stated: HashText, report: (failure: LogFailure) => void) {
    const lead = this.#leads.find(heads.data, heads.fixed(0, 16))
    const seq = heads.int4(1)
    if (lead < 0) {
      const leadId = heads.uuid(0)
      report({
        reason: 'trail_missing',
        lead_id: leadId,
        lead_seq: 1,
        detail: `lead ${leadId} has a chain head at ${seq} but no entries`,
      })
      return
    }
    this.#headSeen[lead] = 1
    stated.odd = heads.lowerHex(2, stated.bytes, 0) ? undefined : heads.text(2)!
    const last = this.#seq[lead]
    if (last < seq) {
      report({
        reason: 'seq_gap',
        lead_id: heads.uuid(0),
        lead_seq: last + 1,
        detail: `the trail ends at ${last}; its chain head says ${seq}: entries were cut off`,
      })
    } else if (last > seq || !sameHashText(stated, this.#last(lead))) {
      report({
        reason: 'chain_head_mismatch',
        lead_id: heads.uuid(0),
        lead_seq: last,
        detail: `the chain head (${seq}, ${hashTextString(stated)}) is not the trail's last entry (${last}, ${hashTextString(this.#last(lead))})`,
      })
    }
  }

  #last(lead: number): HashText {
    return { bytes: this.#hash, at: lead * 32, odd: this.#odd.get(lead) }
  }

  #add(data: Uint8Array, from: number) {
    const lead = this.#leads.add(data, from)
    if (lead === this.#seq.length) {
      this.#seq = grown(this.#seq, this.#seq.length * 2)
      this.#hash = grown(this.#hash, this.#hash.length * 2)
      this.#headSeen = grown(this.#headSeen, this.#headSeen.length * 2)
    }
    return lead
  }
}

function grown<T extends Int32Array | Uint8Array>(array: T, length: number): T {
  const bigger = new (array.constructor as new (length: number) => T)(length)
  bigger.set(array)
  return bigger
}
