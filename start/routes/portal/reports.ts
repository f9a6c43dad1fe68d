import router from '@adonisjs/core/services/router'
import { controllers } from '#generated/controllers'
import transmit from '@adonisjs/transmit/services/main'
import { portalStack } from '#start/routes/portal/stacks'

/**
 * Server-sent events (`/__transmit/events`, `/subscribe`, `/unsubscribe`) for signed-in portal
 * users only; which channel each may hear is start/transmit.ts's.
 */
transmit.registerRoutes((route) => route.use(portalStack()))

/** The operator's dashboard and its exports (the figures of GET /v1/reports/kpis and /timeseries). */
router
  .group(() => {
    router.get('reports', [controllers.portal.Reports, 'show']).as('reports.show')
    router.get('reports/kpis', [controllers.portal.Reports, 'kpis']).as('reports.kpis')
    router
      .get('reports/timeseries', [controllers.portal.Reports, 'timeseries'])
      .as('reports.timeseries')
  })
  .prefix('/operator')
  .as('operator')
  .use(portalStack('operator'))

/** A publisher's own figures, live. */
router
  .group(() => {
    router.get('dashboard', [controllers.portal.LiveDashboard, 'show']).as('dashboard.show')
  })
  .prefix('/publisher')
  .as('publisher')
  .use(portalStack('publisher'))

/** A label's manager: the operator's dashboard over its label's publishers only. */
router
  .group(() => {
    router.get('/', [controllers.portal.Reports, 'show']).as('reports.show')
    router.get('kpis', [controllers.portal.Reports, 'kpis']).as('reports.kpis')
    router.get('timeseries', [controllers.portal.Reports, 'timeseries']).as('reports.timeseries')
  })
  .prefix('/label_manager')
  .as('label_manager')
  .use(portalStack('label_manager'))
