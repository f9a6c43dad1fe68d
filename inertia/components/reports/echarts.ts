/**
 * The parts of ECharts the dashboards use, and nothing else: line and bar charts, their grid,
 * tooltip and legend, the ARIA description (a chart's container is read out as words), drawn
 * as SVG. Importing `echarts` whole would ship every chart type.
 */
import { use } from 'echarts/core'
import { BarChart, LineChart } from 'echarts/charts'
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components'
import { SVGRenderer } from 'echarts/renderers'

use([
  LineChart,
  BarChart,
  GridComponent,
  TooltipComponent,
  LegendComponent,
  AriaComponent,
  SVGRenderer,
])

/** The chart colours: the label's primary colour (as the theme set it) and neutral greys. */
export function chartColours() {
  const style = getComputedStyle(document.documentElement)
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback
  return {
    primary: read('--p-primary-color', '#0f766e'),
    previous: read('--p-surface-400', '#94a3b8'),
    text: read('--p-text-muted-color', '#475569'),
    warn: read('--p-amber-500', '#f59e0b'),
    danger: read('--p-red-600', '#dc2626'),
    grid: read('--p-surface-200', '#e2e8f0'),
  }
}
