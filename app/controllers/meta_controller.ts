import app from '@adonisjs/core/services/app'
import privacyConfig from '#config/privacy'

/** What anyone may know about the deployment: its version, region and egress addresses. */
export default class MetaController {
  show() {
    return {
      version: app.version?.toString() ?? null,
      region: privacyConfig.region,
      data_residency: privacyConfig.dataResidency,
    }
  }

  ipRanges() {
    return { webhooks: privacyConfig.egressAddresses }
  }
}
