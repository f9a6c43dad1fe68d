import { readFileSync } from 'node:fs'
import app from '@adonisjs/core/services/app'
import privacyConfig from '#config/privacy'

let version: string | undefined

/** The package's version: what this deployment runs. */
function versionOf() {
  version ??= JSON.parse(readFileSync(app.makePath('package.json'), 'utf8')).version as string
  return version
}

/** What anyone may know about the deployment: its version, region and egress addresses. */
export default class MetaController {
  show() {
    return {
      version: versionOf(),
      region: privacyConfig.region,
      data_residency: privacyConfig.dataResidency,
    }
  }

  ipRanges() {
    return { webhooks: privacyConfig.egressAddresses }
  }
}
