import { createHash } from 'node:crypto'
import canonicalize from 'canonicalize'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import { uuidv7 } from 'uuidv7'
import { appUrl } from '#config/app'
import intakeConfig from '#config/intake'
import type Publisher from '#models/publisher'
import PostingSpecVersion, {
  type PostingSpecBasis,
  type PostingSpecChange,
} from '#models/posting_spec_version'
import User from '#models/user'
import { sendBranded } from '#mails/branded_mail'
import { brandForPublisher } from '#services/catalogue/branding_service'
import { rulesInWords } from '#services/quality/rules_in_words'
import { type PostingSpecVersionView, postingSpecBody, withVersion } from '#openapi/posting_spec'

/** Where a publisher reads its spec in its portal; the announcement links there. */
export const POSTING_SPEC_PAGE = '/publisher/posting-spec'

const FACT_LABELS: Partial<Record<PostingSpecChange['kind'], string>> = {
  rule_added: 'New',
  rule_removed: 'No longer',
}

const basisOf = (publisher: Publisher): PostingSpecBasis => ({
  rules: publisher.qualityRules ?? {},
  country: publisher.country,
})

const bodyOf = (publisher: Publisher, basis: PostingSpecBasis) =>
  postingSpecBody({
    slug: publisher.slug,
    name: publisher.name,
    country: basis.country,
    rules: basis.rules,
    consentMaxAgeDays: intakeConfig.consentMaxAgeDays,
  })

const sentences = (basis: PostingSpecBasis) =>
  rulesInWords(basis.rules, intakeConfig).map((sentence) => sentence.text)

/** What changed between two versions, in the rules' own sentences. */
export function changesBetween(
  before: PostingSpecBasis,
  after: PostingSpecBasis
): PostingSpecChange[] {
  const [old, now] = [sentences(before), sentences(after)]
  const changes: PostingSpecChange[] = [
    ...old
      .filter((text) => !now.includes(text))
      .map((text) => ({ kind: 'rule_removed' as const, text })),
    ...now
      .filter((text) => !old.includes(text))
      .map((text) => ({ kind: 'rule_added' as const, text })),
  ]
  if (before.country !== after.country) {
    changes.push({
      kind: 'country',
      text: `Leads without a country now count as ${after.country} (was ${before.country}).`,
    })
  }
  // Same rules, another document: a release changed the shape of a lead or a ping.
  if (changes.length === 0) {
    changes.push({ kind: 'api', text: 'The shape of a lead or a ping in the API changed.' })
  }
  return changes
}

export const viewOf = (row: PostingSpecVersion): PostingSpecVersionView => ({
  version: row.version,
  created_at: row.createdAt.toUTC().toISO()!,
  changes: row.changes,
})

/**
 * Versions of a publisher's posting spec. The document is built from the rules whenever it is
 * read or the rules are saved; a digest unlike the last version's appends the next version, whose
 * changes are mailed to the publisher's users. The versions are the portal's record of it.
 */
export default class PostingSpecService {
  /** The spec as it is now, with its version and every version before. */
  async current(publisher: Publisher) {
    const body = bodyOf(publisher, basisOf(publisher))
    const versions = await this.refresh(publisher, body)
    return withVersion(body, viewOf(versions[0]), versions.map(viewOf))
  }

  /** Newest first; the first read (or save) makes version 1, which is not announced. */
  async versions(publisher: Publisher) {
    return this.refresh(publisher, bodyOf(publisher, basisOf(publisher)))
  }

  /**
   * Appends a version when the document differs from the last one. Two readers racing for the
   * same next number leave one row: the unique version decides, and only its writer mails.
   */
  async refresh(publisher: Publisher, body = bodyOf(publisher, basisOf(publisher))) {
    const digest = createHash('sha256').update(canonicalize(body)!).digest('hex')
    const latest = await PostingSpecVersion.query()
      .where('publisher_id', publisher.id)
      .orderBy('version', 'desc')
      .first()
    if (latest?.digest !== digest) {
      const basis = basisOf(publisher)
      const changes: PostingSpecChange[] = latest
        ? changesBetween(latest.basis, basis)
        : [{ kind: 'first', text: 'The first version of this posting spec.' }]
      const version = (latest?.version ?? 0) + 1
      const inserted = await db
        .table('posting_spec_versions')
        .insert({
          id: uuidv7(),
          publisher_id: publisher.id,
          version,
          digest,
          basis: JSON.stringify(basis),
          changes: JSON.stringify(changes),
          created_at: new Date(),
        })
        .onConflict(['publisher_id', 'version'])
        .ignore()
        .returning('id')
      if (inserted.length > 0 && latest) {
        await this.announce(publisher, inserted[0].id, version, changes)
      }
    }
    return PostingSpecVersion.query().where('publisher_id', publisher.id).orderBy('version', 'desc')
  }

  /**
   * Mails the new version to the publisher's active users (its contact address when it has
   * none and is past its invitation), after the version is stored: a mail server that is down loses the mail, not the
   * version, and `announced_at` stays empty.
   */
  private async announce(
    publisher: Publisher,
    id: string,
    version: number,
    changes: PostingSpecChange[]
  ) {
    const users = await User.query()
      .where('publisher_id', publisher.id)
      .where('role', 'publisher_user')
      .whereNull('disabled_at')
      .select('email')
    // An invited publisher with no users yet hears of the portal first: its invitation leads there.
    const fallback = publisher.status === 'invited' ? [] : [publisher.contactEmail]
    const recipients = users.length ? users.map((user) => user.email) : fallback
    if (recipients.length === 0) return
    const brand = await brandForPublisher(publisher.id)
    let sent = false
    for (const to of recipients) {
      const ok = await sendBranded(
        brand,
        {
          to,
          subject: `Posting spec ${version} for ${publisher.name}`,
          heading: `Hello ${publisher.name},`,
          paragraphs: [
            `What your leads are held to changed: your posting spec is now version ${version}.`,
            'Check your integration against it before your next leads.',
          ],
          facts: changes.map((change) => [FACT_LABELS[change.kind] ?? 'Changed', change.text]),
          action: { label: 'Read the posting spec', url: `${appUrl}${POSTING_SPEC_PAGE}` },
        },
        { publisher_id: publisher.id, mail: 'posting_spec_version' }
      )
      sent ||= ok
    }
    if (sent) {
      await PostingSpecVersion.query()
        .where('id', id)
        .update({ announced_at: DateTime.utc().toSQL() })
    }
  }
}
