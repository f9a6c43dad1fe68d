import router from '@adonisjs/core/services/router'
import { controllers } from '#generated/controllers'
import { middleware } from '#start/kernel'

const uuid = router.matchers.uuid()

router
  .group(() => {
    router.get('openapi.json', [controllers.Openapi, 'show']).as('openapi')
    router
      .post('oauth/token', [controllers.OauthTokens, 'store'])
      .as('oauth.token')
      .use(middleware.rateLimit())

    router
      .group(() => {
        router.post('labels', [controllers.Labels, 'store']).as('labels.store')
        router.get('labels', [controllers.Labels, 'index']).as('labels.index')
        router.get('labels/:id', [controllers.Labels, 'show']).where('id', uuid).as('labels.show')
        router
          .patch('labels/:id', [controllers.Labels, 'update'])
          .where('id', uuid)
          .as('labels.update')

        router.post('publishers', [controllers.Publishers, 'store']).as('publishers.store')
        router.get('publishers', [controllers.Publishers, 'index']).as('publishers.index')
        router
          .get('publishers/:id', [controllers.Publishers, 'show'])
          .where('id', uuid)
          .as('publishers.show')
        router
          .patch('publishers/:id', [controllers.Publishers, 'update'])
          .where('id', uuid)
          .as('publishers.update')
        router
          .get('publishers/:id/quality-rules', [controllers.QualityRules, 'show'])
          .where('id', uuid)
          .as('quality_rules.show')
        router
          .put('publishers/:id/quality-rules', [controllers.QualityRules, 'update'])
          .where('id', uuid)
          .as('quality_rules.update')
        router
          .post('publishers/:id/quality-rules/preview', [controllers.QualityRules, 'preview'])
          .where('id', uuid)
          .as('quality_rules.preview')
        router
          .post('publishers/:id/quality-rules/confirm', [controllers.Publishers, 'confirmRules'])
          .where('id', uuid)
          .as('publishers.confirm_rules')
        router
          .post('publishers/:id/go-live-request', [controllers.Publishers, 'requestGoLive'])
          .where('id', uuid)
          .as('publishers.go_live_request')

        router.post('buyers', [controllers.Buyers, 'store']).as('buyers.store')
        router.get('buyers', [controllers.Buyers, 'index']).as('buyers.index')
        router.get('buyers/:id', [controllers.Buyers, 'show']).where('id', uuid).as('buyers.show')
        router
          .patch('buyers/:id', [controllers.Buyers, 'update'])
          .where('id', uuid)
          .as('buyers.update')

        router.post('routing-rules', [controllers.RoutingRules, 'store']).as('routing_rules.store')
        router.get('routing-rules', [controllers.RoutingRules, 'index']).as('routing_rules.index')
        router
          .get('routing-rules/:id', [controllers.RoutingRules, 'show'])
          .where('id', uuid)
          .as('routing_rules.show')
        router
          .patch('routing-rules/:id', [controllers.RoutingRules, 'update'])
          .where('id', uuid)
          .as('routing_rules.update')
        router
          .delete('routing-rules/:id', [controllers.RoutingRules, 'destroy'])
          .where('id', uuid)
          .as('routing_rules.destroy')

        router.post('api-keys', [controllers.ApiKeys, 'store']).as('api_keys.store')
        router.get('api-keys', [controllers.ApiKeys, 'index']).as('api_keys.index')
        router
          .delete('api-keys/:id', [controllers.ApiKeys, 'destroy'])
          .where('id', uuid)
          .as('api_keys.destroy')

        router.post('oauth-clients', [controllers.OauthClients, 'store']).as('oauth_clients.store')
        router.get('oauth-clients', [controllers.OauthClients, 'index']).as('oauth_clients.index')
        router
          .delete('oauth-clients/:id', [controllers.OauthClients, 'destroy'])
          .where('id', uuid)
          .as('oauth_clients.destroy')

        router.post('leads', [controllers.Leads, 'store']).as('leads.store')
        router.get('leads', [controllers.Leads, 'index']).as('leads.index')
        router.get('leads/:id', [controllers.Leads, 'show']).where('id', uuid).as('leads.show')
        router
          .post('leads/:id/review', [controllers.Leads, 'review'])
          .where('id', uuid)
          .as('leads.review')
        router.post('requests', [controllers.Requests, 'store']).as('requests.store')
        router
          .get('requests/:id', [controllers.Requests, 'show'])
          .where('id', uuid)
          .as('requests.show')

        // Uploads (CSV, JSON Lines): the file streams in, validation and acceptance run in the worker.
        router.post('uploads', [controllers.Uploads, 'store']).as('uploads.store')
        router.get('uploads', [controllers.Uploads, 'index']).as('uploads.index')
        router
          .get('uploads/:id', [controllers.Uploads, 'show'])
          .where('id', uuid)
          .as('uploads.show')
        router
          .get('uploads/:id/rows', [controllers.Uploads, 'rows'])
          .where('id', uuid)
          .as('uploads.rows')
        router
          .post('uploads/:id/accept', [controllers.Uploads, 'accept'])
          .where('id', uuid)
          .as('uploads.accept')

        router.get('audit-logs', [controllers.AuditLogs, 'index']).as('audit_logs.index')
        router.get('access-logs', [controllers.AccessLogs, 'index']).as('access_logs.index')
        router.get('audit-logs/verify', [controllers.AuditLogs, 'verify']).as('audit_logs.verify')
        router.get('audit-logs/proof', [controllers.AuditLogs, 'proof']).as('audit_logs.proof')
        router
          .get('audit-logs/consistency', [controllers.AuditLogs, 'consistency'])
          .as('audit_logs.consistency')
        router
          .get('audit-logs/checkpoints/latest', [controllers.AuditLogs, 'latestCheckpoint'])
          .as('audit_logs.checkpoints.latest')

        // Reports (docs/reports.md): KPIs and time series, JSON or CSV.
        router.get('reports/kpis', [controllers.Reports, 'kpis']).as('reports.kpis')
        router
          .get('reports/timeseries', [controllers.Reports, 'timeseries'])
          .as('reports.timeseries')

        router.post('users', [controllers.Users, 'store']).as('users.store')
        router.get('users', [controllers.Users, 'index']).as('users.index')
        router
          .patch('users/:id', [controllers.Users, 'update'])
          .where('id', uuid)
          .as('users.update')
        router
          .post('users/:id/invitation', [controllers.InvitationResends, 'user'])
          .where('id', uuid)
          .as('users.invitation.resend')
        router
          .post('publishers/:id/invitation', [controllers.InvitationResends, 'publisher'])
          .where('id', uuid)
          .as('publishers.invitation.resend')
      })
      .use([middleware.apiKey(), middleware.rateLimit()])
  })
  .prefix('/v1')
  .as('v1')
